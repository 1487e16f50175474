package stackbench.runner.findings

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Fixtures
import stackbench.runner.results.RunResult
import stackbench.runner.stats.Look
import stackbench.runner.plan.Planner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

/** A run that repeated rounds before looks were recorded is scored as having looked at every round it ran. */
class UnscheduledLookTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]\nrepetitions: 3", "t.yaml"))
    private val planned = plan.cells.map { Fixtures.cell(it) }
    private fun run(cells: List<stackbench.runner.results.CellResult>, decisions: List<DecisionRecord> = emptyList()) =
        RunResult(run = Fixtures.info(planned.size).copy(repetitions = 3), environment = Fixtures.environment(), cells = cells, decisions = decisions)

    @Test
    fun `a run that kept to its plan is one look`() {
        assertThat(Verdicts.unscheduledLook(run(planned), planned)).isNull()
    }

    @Test
    fun `two rounds past the plan without a look record are look 3 of 3`() {
        val extra = listOf(4, 5).map { r -> planned.first().copy(key = "extra-$r", repetition = r) }
        val all = planned + extra
        val look = Verdicts.unscheduledLook(run(all), all)
        assertThat(look).isEqualTo(Look(3, 3))
        // stricter than one look at 95 %: the last of three looks spends what alpha spending leaves it
        assertThat(look!!.confidence).isGreaterThan(0.95)
        // a run that recorded its looks is read from them instead
        val recorded = Fixtures.decision("c", "a", "b", 0.10, 1.0, 0.9, 1.1, null, 3, 3, "undecided", false, "", look = 2, maxLooks = 2)
        assertThat(Verdicts.unscheduledLook(run(all, listOf(recorded)), all)).isNull()
    }
}
