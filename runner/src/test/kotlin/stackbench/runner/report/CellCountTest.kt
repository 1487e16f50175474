package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.results.CapacityResult
import stackbench.runner.results.Fixtures
import stackbench.runner.results.RunResult
import stackbench.runner.plan.Planner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

class CellCountTest {
    private fun search(n: Int) = CapacityResult(
        key = "tc/cpu/capacity/r$n", configKey = "tc/cpu/capacity", app = "tc", endpoint = "cpu", repetition = n,
        sloP99Ms = 100.0, sloErrorRate = 0.001, capacity = 800.0, brokeAt = 1600.0, cellKeys = emptyList(), steps = emptyList(),
    )

    private fun run(planned: Int, searches: Int): RunResult {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]\nrepetitions: 7", "t.yaml"))
        val cells = plan.cells.map { Fixtures.cell(it) }
        return RunResult(run = Fixtures.info(planned), environment = Fixtures.environment(), cells = cells, searches = List(searches) { search(it + 1) })
    }

    @Test
    fun `a planned run counts its cells against the plan`() {
        assertThat(CellCount.of(run(planned = 9, searches = 0))).isEqualTo("7 of 9 cells")
    }

    @Test
    fun `a run of capacity searches plans no step ahead - it names the searches, never 'of 0'`() {
        assertThat(CellCount.of(run(planned = 0, searches = 12))).isEqualTo("7 cells, the steps of 12 capacity searches")
        assertThat(CellCount.of(run(planned = 0, searches = 1)) { "<b>$it</b>" }).isEqualTo("<b>7</b> cells, the steps of 1 capacity search")
        assertThat(CellCount.of(run(planned = 4, searches = 2))).isEqualTo("7 cells: 4 planned and the steps of 2 capacity searches")
    }
}
