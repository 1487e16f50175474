package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.results.Fixtures
import stackbench.runner.results.LatencyStats
import stackbench.runner.results.NamedLoad
import stackbench.runner.results.PercentilePoint
import stackbench.runner.results.RunResult
import stackbench.runner.results.SliceRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.results.WindowRecord
import stackbench.runner.results.staged
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

/** A cell of named requests in report.html: a table of its requests and a spectrum a request; a scenario's warm-up and steadiness. */
class RequestsViewTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: a, stack: tomcat}]
        endpoints: [{kind: todo, method: [GET, POST]}]
        load: {driver: k6, model: scenario, scenario: {name: warm, users: [{duration: 1s, target: 8}, {duration: 20s, target: 8}], mix: [{request: GET /todo, weight: 7}, {request: POST /todo, weight: 3}], warmup: [{duration: 10s, target: 8}]}}
        """.trimIndent(), "s.yaml"))

    private val cell = Fixtures.cell(plan.cells.first()).let { c ->
        c.staged(
            measured = c.window.measured!!.copy(requests = listOf(
                NamedLoad("GET /todo", "GET /todo", 700, 700, 70.0, latency = LatencyStats(p50 = 1.5, p99 = 4.25),
                    spectrum = listOf(PercentilePoint(50.0, 1.5), PercentilePoint(90.0, 2.0), PercentilePoint(99.0, 4.25))),
                NamedLoad("POST /todo", "POST /todo", 300, 297, 29.7, errors = mapOf("status" to 3), latency = LatencyStats(p50 = 3.0, p99 = 12.0),
                    spectrum = listOf(PercentilePoint(50.0, 3.0), PercentilePoint(99.0, 12.0))),
            )),
            warmup = WarmupRecord(10.2, "stages", null, null, listOf(SliceRecord(1.0, 50.0), SliceRecord(2.0, 90.0))),
            shape = WindowRecord("flat", 1, "from the second second on: no change of level"),
        )
    }

    @Test
    fun `a table of the cell's requests, throughput, p50, p99 and errors each`() {
        val table = RequestsView.table(cell, Html::text)
        assertThat(table).contains("<th class=\"n\">req/s</th>", "<th class=\"n\">p50 ms</th>", "<th class=\"n\">p99 ms</th>", "<th class=\"n\">errors</th>")
        assertThat(Regex("<tr><td>").findAll(table).count()).isEqualTo(2)
        assertThat(table).contains("<td>GET /todo</td>", "<td>POST /todo</td>", "4.25", "12.0")
        assertThat(table).contains(">3<small>1.00 %</small>")
        assertThat(RequestsView.table(Fixtures.cell(plan.cells.first()), Html::text)).isEmpty()
    }

    @Test
    fun `a latency spectrum a request, on the report's percentile axis`() {
        val spec = RequestsView.spectrum(cell, "c-requests-x")!!
        assertThat(spec.series.map { it.name }).containsExactly("GET /todo", "POST /todo")
        assertThat(spec.x.type).isEqualTo("percentile")
        assertThat(spec.series[0].data.map { it.x }).containsExactly(Percentiles.x(50.0), Percentiles.x(90.0), Percentiles.x(99.0))
        assertThat(spec.series[0].color).isNotEqualTo(spec.series[1].color)
    }

    @Test
    fun `a scenario's warm-up and its measured window's steadiness, in words, a cold scenario says it was cold`() {
        assertThat(RequestsView.steadiness(cell)).isEqualTo(
            "warm-up 10.20 s, ended stages; measured window flat from second 1: from the second second on: no change of level")
        assertThat(RequestsView.steadiness(cell.staged(warmup = null, shape = null)))
            .isEqualTo("no warm-up: the scenario was measured from a cold app; the measured window's steadiness was not read")
    }

    @Test
    fun `the report shows them under the cell, its chart placed with the others`() {
        val html = HtmlReport.render(RunResult(run = Fixtures.info(1), environment = Fixtures.environment(), cells = listOf(cell)))
        assertThat(html).contains("<h4>${cell.key}</h4>", "ended stages; measured window flat", "<table class=\"requests\">")
        assertThat(HtmlReportTest.chartIds(html)).contains("c-requests-${Html.slug(cell.key)}")
    }
}
