package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** Open-model cells, ceilings, capacity searches and an interrupted run: the parts later issues fill in. */
class SyntheticReportTest {
    private val html = HtmlReport.render(ReportFixtures.load(ReportFixtures.SYNTHETIC))
    private val specs = HtmlReportTest.embedded(html).path("charts")

    @Test
    fun `an interrupted run says so at the top`() {
        assertThat(html).contains("<span class=\"status interrupted\">interrupted</span>", "This run did not complete: the report shows the 4 cells it recorded.")
    }

    @Test
    fun `capacity searches draw p99 against offered rate with the target marked, and a capacity table`() {
        val chart = specs.values().single { it.path("id").asString().startsWith("c-capacity-") }
        assertThat(chart.path("x").path("name").asString()).isEqualTo("offered rate, req/s")
        assertThat(chart.path("marks").values().map { it.path("value").asDouble() }).containsExactly(100.0)
        assertThat(chart.path("series").values().map { it.path("name").asString() }).containsExactly("tc", "flux")
        assertThat(html).contains("id=\"capacity\"", "<b>1,300</b>", "<b>1,100</b>", "Capacity</a>")
    }

    @Test
    fun `ceilings stand beside the measured figure with the efficiency`() {
        assertThat(html).contains("ceiling req/s", "efficiency", "utilization law", "title=\"one CPU at the measured CPU time per request\">1,900</span>")
    }

    @Test
    fun `open-model latency is labelled as such`() {
        assertThat(specs.values().single { it.path("id").asString().startsWith("c-p99-") }.path("note").asString()).startsWith("open-model latency")
        assertThat(html).contains("<span class=\"flag info\" title=\"open model: latency counted from each request's intended send time\">open-model</span>")
        assertThat(MarkdownSummary.render(ReportFixtures.load(ReportFixtures.SYNTHETIC))).contains("Latency: open-model latency")
    }

    @Test
    fun `without searches or ceilings those parts are left out`() {
        val sweep = HtmlReport.render(ReportFixtures.load(ReportFixtures.SWEEP))
        assertThat(sweep).doesNotContain("id=\"capacity\"", "ceiling req/s")
    }
}
