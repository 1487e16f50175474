package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.gate.GateFixtures
import stackbench.runner.results.RunResult
import java.nio.file.Path

class AfterRunTest {
    private val run = GateFixtures.run("t-1", "2026-12-06T00:00:00Z")

    private class Step(override val name: String, private val applies: Boolean, private val effect: (RunResult) -> RunResult) : AfterRunStep {
        override val section = name
        override fun applies(result: RunResult) = applies
        override fun apply(result: RunResult, dir: Path) = effect(result)
    }

    @Test
    fun `the steps apply in order, a step that does not apply is skipped, and one that fails leaves the record as it was and says why`() {
        val said = mutableListOf<String>()
        val steps = listOf(
            Step("first", true) { it.copy(run = it.run.copy(id = it.run.id + "-a")) },
            Step("skipped", false) { error("not applied") },
            Step("broken", true) { error("no profiles here") },
            Step("last", true) { it.copy(run = it.run.copy(id = it.run.id + "-b")) },
        )
        val out = AfterRun.apply(run, Path.of("unused"), steps) { said += it }
        assertThat(out.run.id).isEqualTo("t-1-a-b")
        assertThat(said).containsExactly("broken (broken) was not read: no profiles here")
    }

    @Test
    fun `an unprofiled run has nothing to read after it`() {
        val steps = AfterRun.steps(Path.of("/nonexistent-jdk"))
        assertThat(steps.map { it.section }).containsExactly("profileComparisons", "profileOverhead")
        assertThat(steps.none { it.applies(run) }).isTrue()
        assertThat(AfterRun.steps(null).map { it.section }).containsExactly("profileOverhead")
    }
}
