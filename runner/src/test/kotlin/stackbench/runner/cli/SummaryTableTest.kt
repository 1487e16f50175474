package stackbench.runner.cli

import stackbench.runner.results.staged
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.results.Fixtures
import stackbench.runner.results.RunResult
import stackbench.runner.results.SliceRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.util.Random

class SummaryTableTest {
    @Test
    fun `each cell shows how its warm-up went, and a configuration whose processes fall says so under the table`() {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: r\napps: [{stack: tomcat}, {stack: webflux}]\nendpoints: [{kind: io, strategies: [completable-future], delay: 100ms}]\nrepetitions: 2", "r.yaml"))
        val rng = Random(2)
        // tomcat's processes lose 40 % a minute; webflux's settle after 9 s
        val falling = WarmupRecord(60.0, "cap", null, null,
            List(60) { t -> SliceRecord(t + 1.0, 2_948.0 * (1 - 0.4 * t / 60) * (1 + 0.03 * (2 * rng.nextDouble() - 1)), 0.01, 1.0) })
        val cells = plan.cells.map { c ->
            Fixtures.cell(c).staged(warmup = if (c.app.name == "tomcat") falling else WarmupRecord(20.0, "steady", 9.0, null, emptyList()))
        }
        val text = SummaryTable.render(RunResult(run = Fixtures.info(cells.size), environment = Fixtures.environment(), cells = cells))
        val lines = text.lines()
        assertThat(lines.first()).contains("warm-up")
        assertThat(lines.filter { it.contains("tomcat") && it.contains("falling") && it.contains("%/min") }).hasSize(2)
        assertThat(lines.filter { it.contains("webflux") && it.contains("settled after 9 s") }).hasSize(2)
        val tomcat = cells.first { it.app.name == "tomcat" }.configKey
        assertThat(lines.last()).startsWith("  $tomcat: 2 of 2 processes fall through the warm-up, losing ")
        assertThat(lines.filter { it.startsWith("  ") && it.contains("slows as it runs") }).hasSize(1)
    }
}
