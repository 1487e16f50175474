package stackbench.runner.report

import stackbench.runner.results.staged
import stackbench.runner.cli.Reports
import stackbench.runner.results.Json
import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import tools.jackson.databind.JsonNode

class HtmlReportTest {
    companion object {
        /** The chart specs embedded in a rendered page, parsed back. */
        fun embedded(html: String): JsonNode {
            val start = html.indexOf("<script type=\"application/json\" id=\"sb-data\">")
            val from = html.indexOf('>', start) + 1
            return Json.mapper.readTree(html.substring(from, html.indexOf("</script>", from)))
        }

        fun chartIds(html: String): List<String> = Regex("<div class=\"chart\" id=\"([^\"]+)\"").findAll(html).map { it.groupValues[1] }.toList()
    }

    private val html = HtmlReport.render(ReportFixtures.load(ReportFixtures.SWEEP))

    @Test
    fun `the page is self-contained, three inline scripts and no source, link or address it could load`() {
        assertThat(Regex("<script").findAll(html).count()).isEqualTo(3)
        val markup = html.replace(Regex("(?s)<script>.*?</script>"), "<script></script>")
        assertThat(markup).doesNotContain(" src=", " href=\"http", "<link", "@import", "url(", "<iframe", "<img")
        assertThat(html).contains("Content-Security-Policy", "default-src 'none'")
        assertThat(html).contains("echarts").contains("Apache License 2.0")
    }

    @Test
    fun `every chart placed on the page has a spec with data, and every spec is placed once`() {
        val ids = chartIds(html)
        val specs = embedded(html).path("charts")
        assertThat(ids).doesNotHaveDuplicates()
        assertThat(specs.values().map { it.path("id").asString() }).containsExactlyElementsOf(ids)
        assertThat(specs.values()).allSatisfy { spec ->
            assertThat(spec.path("series").values().flatMap { s -> s.path("data").values().filter { it.has("y") } }).isNotEmpty()
            assertThat(spec.path("x").path("name").asString()).isNotBlank()
            assertThat(spec.path("y").path("name").asString()).isNotBlank()
        }
        // three overview charts (throughput, p99, requests per CPU-second), startup, and seven per connection level
        assertThat(ids).hasSize(3 + 1 + 7 * 2)
        assertThat(ids).contains("c-throughput-p-cpu-limit-2000-closed-model", "c-per-cpu-second-p-cpu-limit-2000-closed-model",
            "c-spectrum-p-cpu-limit-2000-closed-model-8", "c-startup")
    }

    @Test
    fun `the headline, findings, key figures with flags beside them, and the environment are there`() {
        assertThat(html).contains("<h1>report-fixture</h1>", "What this run shows", "served the most", "had the lowest p99")
        assertThat(html).contains("<b>8</b> of 8 cells, <b>1</b> failed", "swept: connections 8, 64")
        assertThat(html).containsPattern("<b>1,722</b><small[^>]*>1,481–1,963</small>")
        assertThat(html).containsPattern("<b>24\\.5</b><small[^>]*>23\\.4–25\\.6</small><span class=\"flag info\" title=\"closed-model latency")
        assertThat(html).contains("HttpTimeoutException: request timed out", "last 7 lines of the app's log")
        assertThat(html).contains("AMD EPYC", "cgroup-v1", "Apache Tomcat 11.0.24", "Reactor Netty 1.3.7", "oha 1.16.0")
    }

    @Test
    fun `latency figures say which latency they are`() {
        val specs = embedded(html).path("charts")
        val p99 = specs.values().single { it.path("id").asString().startsWith("c-p99-") }
        assertThat(p99.path("note").asString()).startsWith("closed-model latency")
        assertThat(specs.values().filter { it.path("id").asString().startsWith("c-spectrum-") }).allSatisfy {
            assertThat(it.path("x").path("type").asString()).isEqualTo("percentile")
            assertThat(it.path("note").asString()).isEqualTo("closed-model latency")
        }
    }

    @Test
    fun `a configuration whose processes fall says so above its warm-up clocks, with each process's class`() {
        val base = ReportFixtures.load(ReportFixtures.SWEEP)
        val rng = java.util.Random(4)
        val falling = stackbench.runner.results.WarmupRecord(60.0, "cap", null, null,
            List(60) { t -> stackbench.runner.results.SliceRecord(t + 1.0, 2_948.0 * (1 - 0.4 * t / 60) * (1 + 0.03 * (2 * rng.nextDouble() - 1)), 0.01, 1.0) })
        val first = base.cells.first { it.window.measured != null }
        val page = HtmlReport.render(base.copy(cells = base.cells.map { if (it.configKey == first.configKey) it.staged(warmup = falling) else it }))
        assertThat(page).containsPattern("<p class=\"caution\"><strong>[^<]*${Regex.escape(first.configKey)}: (its process falls|\\d+ of \\d+ processes fall) " +
            "through the warm-up, losing [\\d-]+ % of the level a minute, (each )?ending at [\\d-]+ % of the rate it fell from: the app slows as it runs")
        assertThat(page).contains("How each process's throughput went over its warm-up:")
        assertThat(html).doesNotContain("slows as it runs")
    }

    @Test
    fun `rendering twice gives the same page`() {
        assertThat(HtmlReport.render(ReportFixtures.load(ReportFixtures.SWEEP))).isEqualTo(html)
    }

    @Test
    fun `reports write report html and summary md beside results json`(@TempDir dir: Path) {
        val folder = ReportFixtures.copy(ReportFixtures.SWEEP, dir)
        val files = Reports.write(folder)
        assertThat(files.html).isEqualTo(folder.resolve("report.html"))
        assertThat(Files.readString(files.html)).isEqualTo(html)
        assertThat(Files.readString(files.markdown)).startsWith("### report-fixture: stackbench results")
        assertThat(Files.list(folder).use { s -> s.map { it.fileName.toString() }.toList() }).containsExactlyInAnyOrder("results.json", "report.html", "summary.md")
    }
}
