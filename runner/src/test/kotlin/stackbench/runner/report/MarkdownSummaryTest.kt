package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class MarkdownSummaryTest {
    private val md = MarkdownSummary.render(ReportFixtures.load(ReportFixtures.SWEEP))

    @Test
    fun `the key table has a header, an alignment row and one row per configuration`() {
        val rows = md.lines().filter { it.startsWith("|") }
        assertThat(rows).hasSize(2 + 4)
        assertThat(rows[0]).isEqualTo("| configuration | endpoint | load | measured | req/s | p50 ms | p99 ms | errors | app CPU | flags |")
        assertThat(rows[2]).isEqualTo("| tomcat-platform | cpu-direct-limit2000 | c8 | 2/2 | 1,722 (1,481–1,963) | 2.83 | 24.5 (23.4–25.6) | 0.00 % | 99 % | closed-model, throttled |")
        assertThat(rows[5]).contains("| webflux | cpu-direct-limit2000 | c64 | 1/2 | 992 |", "r1 failed: HttpTimeoutException: request timed out")
    }

    @Test
    fun `it says which latency the figures are and what the run shows`() {
        assertThat(md).contains("Latency: closed-model latency", "**What this run shows**", "**tomcat-platform** served the most")
        assertThat(md).contains("2 repetitions of each", "AMD EPYC, 2 CPUs")
    }

    @Test
    fun `a resumed run names each sitting's start, host and commit, in Markdown and HTML, and a run of one sitting says nothing of it`() {
        val base = ReportFixtures.load(ReportFixtures.SWEEP)
        assertThat(md).doesNotContain("Resumed:")
        assertThat(HtmlReport.render(base)).doesNotContain(">sittings<")
        val first = stackbench.runner.results.Sitting("2026-12-06T22:00:00Z", "lab-1", "Intel(R) Xeon(R) Processor", "7a29a2a442df", false)
        val resumed = base.copy(run = base.run.copy(sittings = listOf(first, first.copy(startedAt = "2026-12-07T18:49:00Z", hostname = "lab-2", cpuModel = "AMD EPYC"))))
        assertThat(MarkdownSummary.render(resumed)).contains(
            "Resumed: 2 sittings, from 2026-12-06 22:00 UTC on Intel(R) Xeon(R) Processor at 7a29a2a442; from 2026-12-07 18:49 UTC on AMD EPYC at 7a29a2a442; the host above is the last one's.")
        assertThat(HtmlReport.render(resumed)).contains(">sittings<", "lab-2 <small>AMD EPYC</small> at 7a29a2a442")
    }

    @Test
    fun `markdown escaping leaves plain words alone and neutralises markup`() {
        assertThat(MarkdownSummary.md("tomcat-platform c64")).isEqualTo("tomcat-platform c64")
        assertThat(MarkdownSummary.md("a|b *c* <d> [e](f)\nnext")).isEqualTo("a\\|b \\*c\\* &lt;d&gt; \\[e\\](f) next")
    }

    @Test
    fun `repeated capacity searches give the median capacity with its interval, in Markdown and HTML`() {
        val base = ReportFixtures.load(ReportFixtures.SYNTHETIC)
        val s = base.searches.first()
        val searches = listOf(900.0, 1000.0, 1100.0).mapIndexed { i, c -> s.copy(key = s.configKey + "/r${i + 1}", repetition = i + 1, capacity = c) }
        val result = base.copy(searches = searches)
        val md = MarkdownSummary.render(result)
        assertThat(md).contains("**Capacity**", "| ${s.app} | ${s.endpoint} | 100 ms | 1,000 (900–1,100) | 3/3 | 6, 6, 6 |")
        val html = HtmlReport.render(result)
        assertThat(html).contains("median capacity req/s", "<b>1,000</b>", "900 – 1,100")
    }
}
