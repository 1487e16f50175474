package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** `plan --until-decided BUDGET` previews the looks `run` would take with that budget, as the suite's own key does. */
class PlanUntilDecidedTest {
    private fun looks(out: String): Int =
        Regex("""until-decided \S+: at most (\d+) look""").find(out)?.groupValues?.get(1)?.toInt() ?: error("no until-decided line in:\n$out")

    @Test
    fun `a larger budget allows more looks, each at its own confidence, and nothing runs`() {
        val plain = captured("plan", "quick")
        val suites = captured("plan", "quick", "--until-decided", "150s")
        val wider = captured("plan", "quick", "--until-decided", "30m")
        assertThat(plain.code).isEqualTo(Exit.OK)
        assertThat(plain.out).`as`("the quick suite takes one look").doesNotContain("until-decided")
        assertThat(suites.code).isEqualTo(Exit.OK)
        assertThat(wider.code).isEqualTo(Exit.OK)
        assertThat(suites.out).contains("until-decided 150s:")
        assertThat(wider.out).contains("until-decided 30m:")
        assertThat(looks(wider.out)).isGreaterThan(looks(suites.out))
        // one confidence a look, as many as the looks
        val line = wider.out.lines().single { it.startsWith("until-decided 30m:") }
        assertThat(Regex("""\d+\.\d\d %""").findAll(line).count()).isEqualTo(looks(wider.out))
    }

    @Test
    fun `a suite with nothing to decide is bad input naming the flag, as for run`() {
        for (command in listOf("plan", "run")) {
            val ran = captured(command, "blocking-io", "--until-decided", "5m")
            assertThat(ran.code).describedAs(command).isEqualTo(Exit.BAD_INPUT)
            assertThat(ran.err).describedAs(command).contains("--until-decided: suite blocking-io names no comparisons to decide")
        }
    }
}
