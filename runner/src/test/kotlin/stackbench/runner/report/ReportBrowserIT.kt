package stackbench.runner.report

import stackbench.runner.browser.Browser
import stackbench.runner.cli.Reports
import stackbench.runner.testing.Background
import stackbench.runner.testing.Needs
import stackbench.runner.testing.SharedMachine
import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.parallel.ResourceLock
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource

/**
 * report.html in a real browser: headless Chromium opens it offline, and every chart must be drawn with data,
 * every tooltip must show its line's name as text, and there must be no console error, no dialog and no
 * request. Saves a screenshot of each under runner/target/report-it/ and prints the page's size and render time.
 *
 * To screenshot any results folder (e.g. a quick-suite run for docs/):
 *   ./stackbench report results/quick-... --screenshot docs/report.png
 * or, through this test: -Dstackbench.report.results=DIR -Dstackbench.report.screenshot=PNG
 */
@Background
@ResourceLock(SharedMachine.LANE_2)
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
    fun `a report with a profile links its flame graph, which draws its frames offline with no console error or request`() {
        val chromium = chromium()
        val folder = out.resolve("profiled")
        if (Files.exists(folder)) folder.toFile().deleteRecursively()
        val base = ReportFixtures.load(ReportFixtures.SWEEP)
        val cell = base.cells.first()
        val graph = "${cell.folder}/profile.html"
        // a flame graph drawn by the lab's converter from collapsed stacks, as a profiled window gets one
        val collapsed = folder.resolve("${cell.folder}/profile.collapsed")
        Files.createDirectories(collapsed.parent)
        Files.writeString(collapsed, "java.lang.Thread.run;org.apache.tomcat.util.net.SocketProcessorBase.run;stackbench.workloads.Primes.upTo 900\n" +
            "java.lang.Thread.run;org.apache.tomcat.util.net.SocketProcessorBase.run;org.apache.coyote.http11.Http11Processor.service 300\n" +
            "java.lang.Thread.run;CompileBroker::compiler_thread_loop 100\n")
        stackbench.runner.profiler.FlameConverter(Path.of(System.getProperty("java.home"), "bin", "java")).html(collapsed, null, null, "${cell.key}: cpu", folder.resolve(graph))
        val profiled = base.copy(cells = listOf(cell.copy(probes = mapOf("profile" to stackbench.runner.results.ProbeRecord(
            figures = mapOf("samples" to 1300.0), files = mapOf("flameGraph" to graph, "collapsed" to "${cell.folder}/profile.collapsed"),
            details = stackbench.runner.results.Json.mapper.readTree("""{"mode":"cpu","engine":"async-profiler","event":"cpu","samples":1300,"cpuMsPerRequest":0.5,
                "topSelf":[{"frame":"stackbench.workloads.Primes.upTo","samples":900,"share":0.692,"msPerRequest":0.346}],"topTotal":[]}"""))))) + base.cells.drop(1))
        val files = Reports.write(profiled, folder)

        Browser(chromium).use { browser ->
            val report = browser.open(files.html)
            val href = browser.evaluate("Array.from(document.querySelectorAll('#profiles a')).map(a => a.getAttribute('href')).filter(h => h.endsWith('profile.html'))[0] || null")
            assertThat(href.asString()).isEqualTo(graph)
            assertThat(browser.evaluate("document.querySelector('#profiles').innerText").asString()).contains("stackbench.workloads.Primes.upTo", "69.2 %")
            report.screenshot(out.resolve("profiled-report.png"))
            assertThat(browser.errors).`as`("console errors in the report").isEmpty()
            assertThat(report.otherRequests).`as`("requests besides report.html").isEmpty()

            val flame = browser.open(folder.resolve(href.asString()), ready = FLAME_DRAWN)
            val drawn = browser.evaluate(FLAME)
            assertThat(drawn.path("width").asInt()).`as`("the flame graph's canvas").isGreaterThan(500)
            assertThat(drawn.path("height").asInt()).isGreaterThan(50)
            assertThat(drawn.path("painted").asInt()).`as`("pixels the canvas painted").isGreaterThan(1000)
            assertThat(drawn.path("title").asString()).contains(cell.key)
            val png = out.resolve("profiled-flame.png")
            flame.screenshot(png)
            assertThat(Files.size(png)).isGreaterThan(5_000)
            assertThat(Files.readString(folder.resolve(graph))).contains("Primes.upTo", "Http11Processor.service")
            assertThat(browser.errors).`as`("console errors").isEmpty()
            assertThat(browser.dialogs).`as`("dialogs").isEmpty()
            assertThat(flame.otherRequests.filterNot { it == report.url }).`as`("requests besides the flame graph's page").isEmpty()
            println("report-it: profiled: the report links %s; the flame graph drew %d painted pixels on a %dx%d canvas in %.0f ms; screenshots %s, %s"
                .format(graph, drawn.path("painted").asInt(), drawn.path("width").asInt(), drawn.path("height").asInt(), flame.wallMs,
                    out.resolve("profiled-report.png"), png))
        }
    }

    @Test
    fun `compare html draws each configuration's B over A as a chart, offline, with no console error or request`() {
        val chromium = chromium()
        Files.createDirectories(out)
        val a = ReportFixtures.load(ReportFixtures.SWEEP)
        val page = out.resolve("compare.html")
        Files.writeString(page, stackbench.runner.compare.CompareHtml.render(stackbench.runner.compare.Comparisons.of(a, a)))
        Browser(chromium).use { browser ->
            val opened = browser.open(page)
            val charts = browser.evaluate(CHARTS).values().toList()
            assertThat(charts.map { it.path("id").asString() }).containsExactly("throughput-changes", "p99-changes")
            assertThat(charts).allSatisfy { c ->
                assertThat(c.path("drawn").asBoolean()).isTrue()
                assertThat(c.path("points").asInt()).`as`("${c.path("id").asString()}: a dot a configuration with a ratio")
                    .isBetween(1, a.cells.map { it.configKey }.distinct().size)
                assertThat(c.path("paths").asInt()).isPositive()
            }
            val png = out.resolve("compare.png")
            opened.screenshot(png)
            assertThat(browser.errors).`as`("console errors").isEmpty()
            assertThat(opened.otherRequests).`as`("requests besides compare.html").isEmpty()
            println("report-it: compare.html: ${opened.charts} charts; screenshot $png")
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
        /** async-profiler's flame graph page loaded, its canvas sized by its script. */
        const val FLAME_DRAWN = "document.readyState === 'complete' && document.querySelector('canvas') && document.querySelector('canvas').height > 0 ? 'drawn' : null"

        /** The flame graph's canvas: its size, how many of its pixels are painted (not transparent), and the page's title. */
        const val FLAME = """(() => {
            const c = document.querySelector('canvas');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let painted = 0;
            for (let i = 3; i < d.length; i += 4) if (d[i] > 0) painted++;
            return { width: c.width, height: c.height, painted: painted, title: document.title + ' ' + (document.querySelector('h1') || {}).textContent };
        })()"""

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
