package stackbench.runner.history

import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.browser.Browser
import stackbench.runner.report.ReportBrowserIT
import stackbench.runner.testing.Needs
import java.nio.file.Files
import java.nio.file.Path

/**
 * The history page (`history SUITE --html PAGE`) in a real browser, as the report is checked ([ReportBrowserIT]):
 * eight runs of a suite whose platform-threads throughput stepped down by 30 % at the fifth; every chart is drawn with
 * every run's point, the change point is on the page, and nothing errs, pops up or is fetched. The screenshot is saved
 * under runner/target/report-it/history.png.
 */
@Background
@ResourceLock(SharedMachine.LANE_1)
class HistoryBrowserIT {
    private val out: Path = Path.of("target", "report-it").toAbsolutePath()

    @Test
    fun `the history page draws every run of every configuration, marks the change point, and errs nowhere`() {
        val chromium = Browser.find()
        Needs.that(chromium != null, "chromium (./stackbench doctor --fix --tests installs it, as .ci/run does)")
        val steps = listOf(1000.0, 1004.0, 996.0, 1000.0, 702.0, 698.0, 701.0, 699.0)
        val runs = (1..8).map { HistoryRows.run(it) }
        val cells = (1..8).flatMap { i ->
            listOf(HistoryRows.cell(i, steps[i - 1], 20.0 + i % 2, PLATFORM), HistoryRows.cell(i, 1980.0 + i % 3, 11.0, VIRTUAL))
        }
        val view = HistoryViews.of("t", runs, cells)
        assertThat(view.series.flatMap { it.changes }).describedAs("the step found").isNotEmpty()
        Files.createDirectories(out)
        val page = out.resolve("history.html")
        Files.writeString(page, HistoryHtml.render(view))

        Browser(chromium!!).use { browser ->
            val opened = browser.open(page)
            val charts = browser.evaluate(ReportBrowserIT.CHARTS).values().toList()
            assertThat(charts).hasSize(4) // throughput and p99, for each of the two configurations
            assertThat(charts).allSatisfy { c ->
                val id = c.path("id").asString()
                assertThat(c.path("drawn").asBoolean()).`as`("$id is drawn").isTrue()
                assertThat(c.path("points").asInt()).`as`("$id has a point per run").isGreaterThanOrEqualTo(8)
                assertThat(c.path("paths").asInt()).`as`("$id has SVG paths").isPositive()
            }
            val text = browser.evaluate("document.body.innerText").asString()
            assertThat(text).contains(PLATFORM, VIRTUAL, "t-1", "t-8").contains("throughput from run t-5: 1,000 → 700 req/s")
            val png = out.resolve("history.png")
            opened.screenshot(png)
            assertThat(Files.size(png)).isGreaterThan(10_000)
            assertThat(browser.errors).`as`("console errors").isEmpty()
            assertThat(browser.dialogs).`as`("dialogs").isEmpty()
            assertThat(opened.otherRequests).`as`("requests besides the page").isEmpty()
            println("history-it: ${Files.size(page)} bytes, ${charts.size} charts drawn; screenshot $png")
        }
    }

    private companion object {
        const val PLATFORM = "tomcat-platform/io-blocking-delay100/c100"
        const val VIRTUAL = "tomcat-virtual/io-blocking-delay100/c100"
    }
}
