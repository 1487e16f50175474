package stackbench.runner.findings

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.report.ReportFixtures
import java.util.Locale

class ProseFiguresTest {
    private val run = ReportFixtures.load(ReportFixtures.SWEEP)
    private val runs = mapOf("sweep" to run)
    private val cell = run.cells.first { it.window.measured != null }
    private val rate = cell.window.measured!!.throughput
    private val p99 = cell.window.measured!!.latency.p99!!

    private fun check(prose: String, claims: String = "") =
        ProseFigures.check("# F\n\n## A section\n\n<!-- table:t -->\n*runs: docs/runs/sweep*\n<!-- /table:t -->\n\n$prose\n", runs, claims)

    private fun f(value: Double, decimals: Int) = String.format(Locale.ROOT, "%,.${decimals}f", value)

    @Test
    fun `a figure the section's run measured passes at the precision written, and one it did not is reported with its line`() {
        assertThat(check("It served ${f(rate, 0)} req/s, p99 ${f(p99, 1)} ms.")).isEmpty()
        val wrong = check("It served ${f(rate * 1.02, 0)} req/s.")
        assertThat(wrong).hasSize(1)
        assertThat(wrong.single().line).isEqualTo(9)
        assertThat(wrong.single().figure).isEqualTo("${f(rate * 1.02, 0)} req/s")
        assertThat(wrong.single().toString()).contains("A section").contains("<!-- law|derived|article|earlier: ... -->")
    }

    @Test
    fun `a figure is one of its unit's fields only - a latency written as a rate is reported`() {
        assertThat(check("p99 ${f(p99, 2)} req/s")).hasSize(1)
    }

    @Test
    fun `both ends of a range are checked`() {
        val low = run.cells.mapNotNull { it.window.measured?.throughput }.min()
        val high = run.cells.mapNotNull { it.window.measured?.throughput }.max()
        assertThat(check("from ${f(low, 0)}-${f(high, 0)} req/s")).isEmpty()
        assertThat(check("from ${f(low, 0)}–${f(high * 3, 0)} req/s")).hasSize(1)
    }

    @Test
    fun `published figures, the section tables and a figure that says where it comes from pass, and code and the tables themselves are not prose`() {
        assertThat(check("the article's 123,456 req/s", claims = "published: {a: 123456}")).isEmpty()
        assertThat(check("Little's law gives 4,000 req/s<!-- law: 200 threads ÷ 50 ms -->")).isEmpty()
        assertThat(check("Little's law: 4,000 req/s")).hasSize(1)
        assertThat(check("the replaced run's 1.30×<!-- earlier: event-loop-completable-future-20261125T034724Z, AMD EPYC -->")).isEmpty()
        assertThat(check("the replaced run's 1.30×<!-- earlier: the run before -->")).`as`("an earlier figure names its run by id").hasSize(1)
        assertThat(check("`--duration 77777 s` and <!-- a note: 88888 ms -->")).isEmpty()
        val doc = "## S\n<!-- table:x -->\n| 99999 req/s |\n<!-- /table:x -->\nthe table's 99,999 req/s\n"
        assertThat(ProseFigures.check(doc, runs, "")).isEmpty()
        assertThat(ProseFigures.check("## S\n```\n55555 ms\n```\n", runs, "")).isEmpty()
    }

    @Test
    fun `a setting of the run's suite passes`() {
        val setting = Regex("""(\d+)s\b""").find(run.run.suiteText)!!.groupValues[1]
        assertThat(check("each window lasted $setting s")).isEmpty()
    }

    @Test
    fun `the database's own query time over a window is a figure of the run`() {
        val probed = cell.copy(probes = mapOf("database" to stackbench.runner.results.ProbeRecord(figures = mapOf("meanExecMs" to 2.1347, "cpuMsPerRequest" to 0.09))))
        val withDb = mapOf("sweep" to run.copy(cells = run.cells.map { if (it.key == cell.key) probed else it }))
        fun checkDb(prose: String) = ProseFigures.check("# F\n\n## A section\n\n<!-- table:t -->\n*runs: docs/runs/sweep*\n<!-- /table:t -->\n\n$prose\n", withDb, "")
        assertThat(checkDb("each query took 2.13 ms in the database")).isEmpty()
        assertThat(checkDb("each query took 2.45 ms in the database")).hasSize(1)
    }
}
