package stackbench.runner.compare

import stackbench.runner.stats.Relation
import stackbench.runner.results.staged
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.gate.Gate
import stackbench.runner.gate.GateMarkdown
import stackbench.runner.plan.Planner
import stackbench.runner.report.ReportFixtures
import stackbench.runner.results.AppVersions
import stackbench.runner.results.Fixtures
import stackbench.runner.results.ResourceSummary
import stackbench.runner.results.RunResult
import stackbench.runner.results.SliceRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

class ComparisonTest {
    /** One configuration, a process per repetition (`restart: cell`), with these throughputs and p99s. */
    private fun run(throughputs: List<Double>, p99s: List<Double>): RunResult {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: c\napps: [{stack: tomcat}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]\nrepetitions: ${throughputs.size}", "c.yaml"))
        val cells = plan.cells.map { c -> Fixtures.cell(c).staged(measured = Fixtures.load(throughputs[c.repetition - 1], p99s[c.repetition - 1])) }
        return RunResult(run = Fixtures.info(cells.size), environment = Fixtures.environment(), cells = cells)
    }

    @Test
    fun `two real runs match by configuration and are decided over processes, as the gate decides them`() {
        val a = ReportFixtures.load(ReportFixtures.COMPARE_A)
        val b = ReportFixtures.load(ReportFixtures.COMPARE_B)
        val c = Comparisons.of(a, b)
        assertThat(c.changes.map { it.configKey }).containsExactly("tomcat-platform/cpu-direct-limit2000/c16", "webflux/cpu-direct-limit2000/c16")
        val gate = Gate.decide(a, b, c.threshold).cells.associateBy { it.configKey }
        for (ch in c.changes) {
            val g = gate.getValue(ch.configKey)
            assertThat(listOf(ch.throughput.decision.ratio, ch.throughput.decision.low, ch.throughput.decision.high, ch.throughput.decision.relation))
                .`as`("${ch.configKey}: compare and gate, one engine").isEqualTo(listOf(g.throughput.decision.ratio, g.throughput.decision.low, g.throughput.decision.high, g.throughput.decision.relation))
        }
        val webflux = c.changes[1]
        assertThat(webflux.measuredA to webflux.measuredB).isEqualTo(2 to 1)
        assertThat(webflux.throughput.decided).isFalse()
        assertThat(webflux.throughput.decision.why).contains("an interval needs 2")
        assertThat(c.onlyA).isEmpty()
        assertThat(c.onlyB).isEmpty()
        assertThat(CompareText.render(c)).contains("B ÷ A = ", "as the gate decides it")
    }

    @Test
    fun `a clear change over five processes is decided, in the right direction for each figure`() {
        val a = run(listOf(1000.0, 1010.0, 990.0, 1005.0, 995.0), listOf(10.0, 10.5, 9.5, 10.2, 9.8))
        val b = run(listOf(1300.0, 1310.0, 1290.0, 1305.0, 1295.0), listOf(20.0, 20.5, 19.5, 20.2, 19.8))
        val ch = Comparisons.of(a, b).changes.single()
        assertThat(ch.throughput.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(ch.throughput.decision.processesA to ch.throughput.decision.processesB).isEqualTo(5 to 5)
        assertThat(ch.p99.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(CompareWords.good(CompareWords.Figure.THROUGHPUT, ch.throughput)).isTrue()
        assertThat(CompareWords.good(CompareWords.Figure.P99, ch.p99)).isFalse()
        assertThat(CompareWords.decision(ch.throughput)).startsWith("B ÷ A = 1.30× [").contains("higher, beyond ±10 % (5 and 5 processes, 10 independent JVMs)")
        val html = CompareHtml.render(Comparisons.of(a, b))
        assertThat(html).contains("<span class=\"good\">1.30× [", "<span class=\"bad\">2.00× [")
    }

    @Test
    fun `a single process a side cannot tell, and says why`() {
        val ch = Comparisons.of(run(listOf(1000.0), listOf(10.0)), run(listOf(2000.0), listOf(5.0))).changes.single()
        assertThat(ch.throughput.decided).isFalse()
        assertThat(CompareWords.decision(ch.throughput)).isEqualTo("B ÷ A = 2.00×: cannot tell yet: ${ch.throughput.decision.why} (1 and 1 processes, 2 independent JVMs)")
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

    @Test
    fun `compare and gate show each process's warm-up class, and a side whose processes fall says so in its verdict`() {
        // a warm-up that reached its cap losing 40 % over its minute, in 1 s slices: the app slows as it runs
        val falling = WarmupRecord(60.0, "cap", null, null, List(60) { t -> SliceRecord(t + 1.0, 2_950.0 - 20.0 * t, 0.01, 1.0) })
        val steady = WarmupRecord(20.0, "steady", 12.0, null, emptyList())
        val a = run(listOf(1000.0, 1010.0, 990.0), listOf(10.0, 10.5, 9.5)).let { r -> r.copy(cells = r.cells.map { it.copy(process = "p${it.repetition}").staged(warmup = steady, resources = ResourceSummary(cpuShare = 0.5)) }) }
        val b = run(listOf(600.0, 610.0, 590.0), listOf(20.0, 20.5, 19.5)).let { r -> r.copy(cells = r.cells.map { it.copy(process = "p${it.repetition}").staged(warmup = falling) }) }
        val c = Comparisons.of(a, b)
        val ch = c.changes.single()
        assertThat(ch.warmupA).isEqualTo("p1 settled after 12 s; p2 settled after 12 s; p3 settled after 12 s")
        assertThat(ch.warmupB).matches("(p\\d falling \\d+ %/min; ){2}p\\d falling \\d+ %/min")
        assertThat(ch.fallingA).isNull()
        assertThat(ch.fallingB).startsWith("3 of 3 processes fall through the warm-up")
        assertThat(ch.throughput.decision.why).contains("current:${ch.configKey}: 3 of 3 processes fall through the warm-up").doesNotContain("baseline:${ch.configKey}:")
        // half of one allotted CPU for 1,000 req/s: 2,000 requests per CPU-second; B read no CPU
        assertThat(ch.perCpuA!!.median).isEqualTo(2_000.0)
        assertThat(ch.perCpuB).isNull()
        assertThat(CompareText.render(c)).contains("  warm-up p1 settled after 12 s;", "  B: 3 of 3 processes fall",
            "  cost   2,000 (1,980–2,020) n=3  →  no window counted requests per CPU-second of the app")
        assertThat(CompareHtml.render(c)).contains("warm-up A: p1 settled after 12 s;", "<strong>B: 3 of 3 processes fall")
        val gate = Gate.decide(a, b, 0.05)
        assertThat(gate.cells.single().warmupCurrent).isEqualTo(ch.warmupB)
        assertThat(GateMarkdown.render(gate)).contains("How each app process's throughput went over its warm-up (baseline → current):",
            "p1 settled after 12 s; p2 settled after 12 s; p3 settled after 12 s → p", "3 of 3 processes fall through the warm-up")
    }
}
