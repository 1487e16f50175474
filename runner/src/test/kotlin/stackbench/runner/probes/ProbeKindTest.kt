package stackbench.runner.probes

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.runner.suite.MachineFacts
import stackbench.runner.results.Json
import stackbench.runner.suite.SuiteParser
import java.nio.file.Path

class ProbeKindTest {
    private fun suite(extra: String = "") = SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{name: tc, stack: tomcat}]\nendpoints: [{kind: noop}]\nload: {connections: [1]}\n$extra", "s.yaml")

    private fun context(extra: String = "", home: Path = Path.of("/nonexistent")) =
        ProbeContext(suite(extra), home, Path.of("java"), Json.mapper, database = null)

    @Test
    fun `every probe's kind is found without a list to keep`() {
        assertThat(ProbeKind.ALL).containsExactly(
            AllocationProbe.Kind, DatabaseProbe.Kind, PinningProbe.Kind, ProfilerProbe.Kind, RelayProbe.Kind,
        )
    }

    @Test
    fun `a run without profiler or database gets the probes that apply per cell, and no profile or database probe`() {
        val names = ProbeKind.ALL.flatMap { it.probes(context()) }.map { it.name }
        assertThat(names).containsExactly("alloc", "pinned", "relay")
    }

    private sealed interface Shape
    private object Round : Shape
    private class Square(val side: Int) : Shape

    private sealed interface Colour
    private object Red : Colour
    private object Blue : Colour

    @Test
    fun `the objects of a sealed type are found by name, and an implementation that is not an object is named`() {
        assertThat(ProbeKind.sealedObjects(Colour::class.java)).containsExactly(Blue, Red)
        assertThatThrownBy { ProbeKind.sealedObjects(Shape::class.java) }
            .hasMessageContaining("Square").hasMessageContaining("not an object")
    }
}
