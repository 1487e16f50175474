package stackbench.runner.compare

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.report.ReportFixtures
import stackbench.runner.results.AppVersions
import stackbench.runner.results.Fixtures
import stackbench.runner.results.RunResult
import stackbench.runner.stats.Verdict
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

class ComparisonTest {
    private fun run(throughputs: List<Double>, p99s: List<Double>): RunResult {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: c\napps: [{stack: tomcat}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]\nrepetitions: ${throughputs.size}", "c.yaml"))
        val cells = plan.cells.map { c -> Fixtures.cell(c).copy(measured = Fixtures.load(throughputs[c.repetition - 1], p99s[c.repetition - 1])) }
        return RunResult(run = Fixtures.info(cells.size), environment = Fixtures.environment(), cells = cells)
    }

    @Test
    fun `two real runs match by configuration and say what their repetitions can and cannot tell`() {
        val c = Comparisons.of(ReportFixtures.load(ReportFixtures.COMPARE_A), ReportFixtures.load(ReportFixtures.COMPARE_B))
        assertThat(c.changes.map { it.configKey }).containsExactly("tomcat-platform/cpu-direct-limit2000/c16", "webflux/cpu-direct-limit2000/c16")
        val tomcat = c.changes[0]
        assertThat(tomcat.measuredA to tomcat.measuredB).isEqualTo(3 to 3)
        assertThat(tomcat.throughput!!.verdict).isEqualTo(Verdict.NO_CHANGE)
        assertThat(tomcat.throughput!!.low).isNotNull()
        val webflux = c.changes[1]
        assertThat(webflux.measuredA to webflux.measuredB).isEqualTo(2 to 1)
        assertThat(webflux.throughput!!.verdict).isEqualTo(Verdict.CANNOT_TELL)
        assertThat(c.onlyA).isEmpty()
        assertThat(c.onlyB).isEmpty()
        val text = CompareText.render(c)
        assertThat(text).contains("req/s  1,845 [1,827–1,975] n=3  →  1,500 [1,446–1,829] n=3 req/s", "no change the repetitions can tell", "cannot tell: a single repetition")
    }

    @Test
    fun `a clear change over five repetitions is called, in the right direction for each figure`() {
        val a = run(listOf(1000.0, 1010.0, 990.0, 1005.0, 995.0), listOf(10.0, 10.5, 9.5, 10.2, 9.8))
        val b = run(listOf(1300.0, 1310.0, 1290.0, 1305.0, 1295.0), listOf(20.0, 20.5, 19.5, 20.2, 19.8))
        val ch = Comparisons.of(a, b).changes.single()
        assertThat(ch.throughput!!.verdict).isEqualTo(Verdict.BETTER)
        assertThat(ch.p99!!.verdict).isEqualTo(Verdict.BETTER)
        assertThat(CompareWords.verdict(CompareWords.Figure.THROUGHPUT, ch.throughput!!)).isEqualTo("higher: better, and the repetitions support it")
        assertThat(CompareWords.verdict(CompareWords.Figure.P99, ch.p99!!)).isEqualTo("higher: worse, and the repetitions support it")
        assertThat(CompareWords.good(CompareWords.Figure.P99, ch.p99!!)).isFalse()
        assertThat(CompareWords.change(ch.throughput!!)).startsWith("+30 % [+").contains(", p ")
        val html = CompareHtml.render(Comparisons.of(a, b))
        assertThat(html).contains("<span class=\"good\">+30 %", "<span class=\"bad\">+100 %")
    }

    @Test
    fun `a single repetition a side cannot tell`() {
        val ch = Comparisons.of(run(listOf(1000.0), listOf(10.0)), run(listOf(2000.0), listOf(5.0))).changes.single()
        assertThat(ch.throughput!!.verdict).isEqualTo(Verdict.CANNOT_TELL)
        assertThat(CompareWords.verdict(CompareWords.Figure.THROUGHPUT, ch.throughput!!)).isEqualTo("cannot tell: a single repetition")
        assertThat(CompareWords.change(ch.throughput!!)).isEqualTo("+100 %")
    }

    @Test
    fun `differences in JDK, kernel, CPU and versions are called out first`() {
        val a = run(listOf(1000.0), listOf(10.0))
        val env = a.environment.copy(appJdk = "openjdk 26", kernel = "6.9", cpuModel = "Other CPU",
            apps = mapOf("tomcat" to AppVersions("4.1.2", "7.0.10", "Apache Tomcat", "11.0.25", "26")))
        val b = a.copy(environment = env)
        val a2 = a.copy(environment = a.environment.copy(apps = mapOf("tomcat" to AppVersions("4.1.1", "7.0.9", "Apache Tomcat", "11.0.24", "25"))))
        val c = Comparisons.of(a2, b)
        assertThat(c.differences.map { it.what }).containsExactly("app JDK", "kernel", "CPU model", "versions of tomcat")
        val text = CompareText.render(c)
        assertThat(text.lines()[2]).startsWith("Environment differences")
        assertThat(text).contains("  app JDK: openjdk 25  →  openjdk 26", "  kernel: 6.1  →  6.9")
        assertThat(CompareHtml.render(c)).contains("4 difference(s)", "<td>Other CPU</td>")
    }

    @Test
    fun `configurations in one run only are listed`() {
        val sweep = ReportFixtures.load(ReportFixtures.SWEEP)
        val c = Comparisons.of(sweep, ReportFixtures.load(ReportFixtures.COMPARE_A))
        assertThat(c.changes).isEmpty()
        assertThat(c.onlyA).hasSize(4)
        assertThat(c.onlyB).hasSize(2)
        assertThat(CompareText.render(c)).contains("No configuration appears in both runs")
    }
}
