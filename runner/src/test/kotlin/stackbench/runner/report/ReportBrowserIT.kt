package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import stackbench.runner.browser.Browser
import java.nio.file.Files
import java.nio.file.Path

/**
 * report.html in a real browser: headless Chromium opens it offline, and every chart must be drawn with data,
 * every tooltip must show its line's name as text, and there must be no console error, no dialog and no
 * request. Saves a screenshot of each under runner/target/report-it/ and prints the page's size and render time.
 *
 * To screenshot any results folder (e.g. a quick-suite run for docs/):
 *   ./stackbench report results/quick-... --screenshot docs/report.png
 * or, through this test: -Dstackbench.report.results=DIR -Dstackbench.report.screenshot=PNG
 */
class ReportBrowserIT {
    private val out: Path = Path.of("target", "report-it").toAbsolutePath()

    private fun chromium(): Path {
        val found = Browser.find()
        Needs.that(found != null, "chromium (./stackbench doctor --fix --tests installs it, as .ci/run does)")
        return found!!
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = [ReportFixtures.SWEEP, ReportFixtures.SYNTHETIC, ReportFixtures.HOSTILE])
    fun `every chart is drawn with data, offline, with no console error, dialog or request`(fixture: String) {
        val chromium = chromium()
        Files.createDirectories(out)
        val folder = out.resolve(fixture)
        if (Files.exists(folder)) folder.toFile().deleteRecursively()
        val files = Reports.write(ReportFixtures.load(fixture), folder)
        val placed = HtmlReportTest.chartIds(Files.readString(files.html))

        Browser(chromium).use { browser ->
            val page = browser.open(files.html)
            val charts = browser.evaluate(CHARTS).values().toList()
            assertThat(charts.map { it.path("id").asString() }).containsExactlyElementsOf(placed)
            assertThat(charts).allSatisfy { c ->
                val id = c.path("id").asString()
                assertThat(c.path("drawn").asBoolean()).`as`("$id is drawn").isTrue()
                assertThat(c.path("points").asInt()).`as`("$id has data").isPositive()
                assertThat(c.path("paths").asInt()).`as`("$id has SVG paths").isPositive()
                assertThat(c.path("height").asInt()).`as`("$id has a size").isGreaterThan(100)
            }
            val png = out.resolve("$fixture.png")
            page.screenshot(png)
            assertThat(Files.size(png)).isGreaterThan(10_000)

            val tips = browser.evaluate(TOOLTIPS)
            assertThat(tips.path("shown").asInt()).isPositive()
            assertThat(tips.path("named").asInt()).`as`("tooltips name their line, as text").isEqualTo(tips.path("shown").asInt())
            assertThat(tips.path("markup").asInt()).`as`("markup from results inside charts or tooltips").isZero()
            assertThat(browser.evaluate("window.__pwned === undefined").asBoolean()).isTrue()
            assertThat(browser.errors).`as`("console errors").isEmpty()
            assertThat(browser.dialogs).`as`("dialogs").isEmpty()
            assertThat(page.otherRequests).`as`("requests besides report.html").isEmpty()

            println("report-it: %s: report.html %,d bytes; %d charts drawn in %.0f ms by report.js, %.0f ms from navigation to drawn; screenshot %s"
                .format(fixture, Files.size(files.html), page.charts, page.renderMs, page.wallMs, png))
        }
    }

    @Test
    fun `the browser check itself sees console errors, exceptions, dialogs and requests`() {
        val chromium = chromium()
        Files.createDirectories(out)
        val page = out.resolve("bad.html")
        Files.writeString(page, """<!doctype html><html><body><script>
            console.error('an error'); alert('a dialog'); new Image().src = 'http://127.0.0.1:9/pixel.png';
            window.stackbench = { charts: 0, renderMs: 1, readyAt: 1 }; document.documentElement.setAttribute('data-charts-drawn', '0');
            setTimeout(() => { throw new Error('an exception'); }, 0);
            </script></body></html>""")
        Browser(chromium).use { browser ->
            val opened = browser.open(page)
            val deadline = System.currentTimeMillis() + 5000
            while ((browser.errors.size < 2 || browser.dialogs.isEmpty()) && System.currentTimeMillis() < deadline) Thread.sleep(20)
            assertThat(browser.errors).anySatisfy { assertThat(it).contains("an error") }.anySatisfy { assertThat(it).contains("an exception") }
            assertThat(browser.dialogs).anySatisfy { assertThat(it).contains("a dialog") }
            assertThat(opened.otherRequests).contains("http://127.0.0.1:9/pixel.png")
        }
    }

    @Test
    fun `a screenshot of a given results folder, when asked for`() {
        val results = System.getProperty("stackbench.report.results")
        assumeTrue(!results.isNullOrBlank(), "no -Dstackbench.report.results=DIR given")
        val files = Reports.write(Path.of(results))
        val png = Path.of(System.getProperty("stackbench.report.screenshot") ?: out.resolve("given.png").toString())
        Browser(chromium()).use { browser ->
            val page = browser.open(files.html).screenshot(png)
            assertThat(browser.errors).isEmpty()
            println("report-it: ${files.html}: ${page.charts} charts; screenshot $png")
        }
    }

    companion object {
        /** Per chart element: drawn, how many points its series hold, how many SVG paths it drew. */
        const val CHARTS = """Array.from(document.querySelectorAll('.chart')).map(el => {
            const c = echarts.getInstanceByDom(el);
            const o = c ? c.getOption() : null;
            const points = o ? o.series.reduce((n, s) => n + (s.data || []).filter(d => d && d.value && d.value[1] != null).length, 0) : 0;
            return { id: el.id, drawn: !!c, points: points, paths: el.querySelectorAll('svg path').length, height: el.clientHeight };
        })"""

        /** Shows the tooltip of every line's first point; counts those naming their line, and any markup that is not ours. */
        const val TOOLTIPS = """(async () => {
            let shown = 0, named = 0;
            for (const el of document.querySelectorAll('.chart')) {
                const c = echarts.getInstanceByDom(el);
                const series = c.getOption().series;
                for (let i = 0; i < series.length; i++) {
                    const d = (series[i].data || []).findIndex(p => p && p.value && p.value[1] != null);
                    if (d < 0) continue;
                    c.dispatchAction({ type: 'showTip', seriesIndex: i, dataIndex: d });
                    await new Promise(r => requestAnimationFrame(() => r()));
                    shown++;
                    if (el.innerText.includes(series[i].name)) named++;
                }
                c.dispatchAction({ type: 'hideTip' });
            }
            const markup = document.querySelectorAll('.chart script, .chart img, .chart iframe, main img, main iframe, main script').length
                + Array.from(document.querySelectorAll('b, strong')).filter(b => b.textContent === 'bold').length;
            return { shown: shown, named: named, markup: markup };
        })()"""
    }
}
