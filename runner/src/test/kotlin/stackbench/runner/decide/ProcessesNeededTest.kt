package stackbench.runner.decide

import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Fixtures
import stackbench.runner.results.RunResult
import stackbench.runner.suite.SuiteComparison
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class ProcessesNeededTest {
    private val comparisons = listOf(
        SuiteComparison("virtual-vs-platform", "virtual/x", "platform/x", 0.10),
        SuiteComparison("jetty-vs-tomcat", "jetty/x", "tomcat/x", 0.10),
        SuiteComparison("near-edge", "a/x", "b/x", 0.10),
        SuiteComparison("new", "c/x", "d/x", 0.10),
    )

    private fun decision(name: String, ratio: Double, low: Double, high: Double, decided: Boolean, relation: String, needed: Int?) =
        Fixtures.decision(name, "a", "b", 0.10, ratio, low, high, null, 6, 6, relation, decided, "why", processesA = 3, processesB = 3, processesNeeded = needed)

    private val earlier = RunResult(run = Fixtures.info(), environment = Fixtures.environment(), decisions = listOf(
        decision("virtual-vs-platform", 2.01, 1.95, 2.07, true, "higher", 2),
        decision("jetty-vs-tomcat", 1.16, 1.02, 1.32, false, "cannot tell yet", 7),
        decision("near-edge", 1.10, 1.04, 1.16, false, "cannot tell yet", null),
    ))

    @Test
    fun `each comparison says what the earlier run read and how many processes a side would decide it`() {
        val lines = ProcessesNeeded.lines(comparisons, earlier, processes = 3)
        assertThat(lines.first()).isEqualTo("processes needed, from t-20261122T000000Z (2026-11-22); this plan runs 3 a side:")
        assertThat(lines[1]).isEqualTo("  virtual-vs-platform: read 2.01× [1.95–2.07] over 3 and 3 processes, decided higher; about 2 a side decide it at that spread")
        assertThat(lines[2]).endsWith("undecided; about 7 a side would decide it against ±10 %: set processes: 7 or more")
        assertThat(lines[3]).contains("20 a side would not decide it against ±10 %")
        assertThat(lines[4]).isEqualTo("  new: not compared in that run")
        assertThat(ProcessesNeeded.lines(comparisons, earlier, processes = 8)[2]).endsWith("which this plan runs")
    }

    @Test
    fun `without an earlier run it says how to get an estimate, and a suite without comparisons says nothing`() {
        assertThat(ProcessesNeeded.lines(comparisons, null, 3).single()).startsWith("processes needed: no earlier run of this suite in the history")
        assertThat(ProcessesNeeded.lines(emptyList(), earlier, 3)).isEmpty()
    }
}
