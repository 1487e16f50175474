package stackbench.runner.report

import stackbench.runner.results.staged
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.results.Fixtures
import stackbench.runner.results.RunResult
import stackbench.runner.decide.SuiteDecisions
import stackbench.runner.suite.SuiteComparison
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

class FindingsTest {
    /** tomcat and webflux at one load level, [reps] repetitions, with the given throughput and p99 per repetition. */
    private fun run(reps: Int, tomcat: List<Double>, webflux: List<Double>, p99: (String, Int) -> Double = { _, _ -> 10.0 }): RunResult {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: f\napps: [{stack: tomcat}, {stack: webflux}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]\nrepetitions: $reps", "f.yaml"))
        val cells = plan.cells.map { c ->
            val t = (if (c.app.name == "tomcat") tomcat else webflux)[c.repetition - 1]
            Fixtures.cell(c).staged(measured = Fixtures.load(t, p99(c.app.name, c.repetition)))
        }
        return RunResult(run = Fixtures.info(cells.size), environment = Fixtures.environment(), cells = cells)
    }

    private fun plain(f: Finding) = Findings.sentence(f, { "[$it]" }, { it })

    @Test
    fun `a lead is stated in the words of the suite's comparison that decided it, never by a test of its own`() {
        val r = run(5, listOf(1000.0, 1010.0, 990.0, 1005.0, 995.0), listOf(1500.0, 1510.0, 1490.0, 1505.0, 1495.0))
        val tomcat = r.cells.first { it.app.name == "tomcat" }.configKey
        val webflux = r.cells.first { it.app.name == "webflux" }.configKey
        val decided = SuiteDecisions.decide(listOf(SuiteComparison("webflux-vs-tomcat", webflux, tomcat, 0.10)), r.cells)
        val f = Findings.of(RunView(r.copy(decisions = decided))).single().throughput!!
        assertThat(f.best).isEqualTo("webflux")
        assertThat(f.decision).isEqualTo(decided.single())
        assertThat(plain(f)).startsWith("[webflux] served the most: 1,500 req/s, 50 % more than [tomcat] (1,000 req/s); " +
            "the suite's comparison webflux-vs-tomcat decided $webflux ÷ $tomcat = ${Decided.ratio(decided.single())}${Decided.interval(decided.single())}: higher, beyond ±10 % (5 and 5 processes, 10 independent JVMs)")
    }

    @Test
    fun `two configurations no comparison sets side by side are ranked, not decided`() {
        val g = Findings.of(RunView(run(5, List(5) { 1000.0 }, listOf(1200.0, 1190.0, 1210.0, 1205.0, 1195.0)))).single()
        assertThat(g.throughput!!.decision).isNull()
        assertThat(plain(g.throughput!!)).contains("20 % more than").contains("no comparison of the suite sets these two side by side")
    }

    @Test
    fun `a configuration alone is said to be alone, and a flag on the best figure is a caveat`() {
        val r = run(1, listOf(1000.0), listOf(1200.0))
        val flagged = r.copy(cells = r.cells.filter { it.app.name == "webflux" }.map {
            it.copy(flags = listOf(stackbench.runner.results.Flag("client-bound", "the load generator used 97 % of its CPUs", "throughput")))
        })
        val f = Findings.of(RunView(flagged)).single().throughput!!
        assertThat(plain(f)).isEqualTo("[webflux] served the most: 1,200 req/s (the only configuration measured here). " +
            "But it is flagged client-bound (the load generator used 97 % of its CPUs).")
    }

    @Test
    fun `failed configurations are reported where they failed`() {
        val g = Findings.of(RunView(ReportFixtures.load(ReportFixtures.SWEEP)))
        assertThat(g.map { it.failed }).containsExactly(emptyList(), listOf("webflux (1 of 2 failed: HttpTimeoutException: request timed out)"))
    }
}
