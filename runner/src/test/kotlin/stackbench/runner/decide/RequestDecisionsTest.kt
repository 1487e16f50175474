package stackbench.runner.decide

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellResult
import stackbench.runner.results.Fixtures
import stackbench.runner.results.LatencyStats
import stackbench.runner.results.NamedLoad
import stackbench.runner.results.staged
import stackbench.runner.stats.Relation
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import stackbench.runner.yaml.SuiteException

/** A suite comparison of one named request (`request: read`), decided from synthetic cells: no server runs. */
class RequestDecisionsTest {
    private fun suite(compare: String) = SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: platform, stack: tomcat}, {name: virtual, stack: tomcat, virtual-threads: true}]
        endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
        load: {connections: [100]}
        restart: app
        processes: 3
        repetitions: 2
        compare:
          $compare
        """.trimIndent(), "t.yaml",
    )

    private val a = "virtual/io-blocking-delay100/c100"
    private val b = "platform/io-blocking-delay100/c100"

    /**
     * Every cell at 1,000 req/s in all; its `read` at [read] req/s (p99 [p99] ms) and its `write` the same on both
     * sides, so that only the named request's figure differs between them.
     */
    private fun cells(compare: String, read: (app: String) -> Double, p99: (app: String) -> Double = { 10.0 }): Pair<stackbench.runner.suite.Suite, List<CellResult>> {
        val s = suite(compare)
        val cells = Planner.plan(s).cells.map { c ->
            val cell = Fixtures.cell(c, throughput = 1000.0 + c.repetition)
            val app = c.app.name
            val jitter = c.repetition * 0.5
            cell.staged(measured = cell.window.measured!!.copy(requests = listOf(
                NamedLoad("read", "GET /io", 10, 10, read(app) + jitter, latency = LatencyStats(p50 = 1.0, p99 = p99(app) + jitter)),
                NamedLoad("write", "POST /io", 10, 10, 300.0 + jitter, latency = LatencyStats(p50 = 2.0, p99 = 20.0 + jitter)),
            )))
        }
        return s to cells
    }

    @Test
    fun `a comparison naming a request decides on that request's figure, not the cells' whole load`() {
        val (s, cells) = cells("- {a: $a, b: $b, request: read}", read = { if (it == "virtual") 1400.0 else 700.0 })
        val d = SuiteDecisions.decide(s.comparisons, cells).single()
        assertThat(d.request).isEqualTo("read")
        assertThat(d.name).isEqualTo("$a vs $b (read)")
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.decision.ratio!!).isBetween(1.99, 2.01)
        // the cells' whole load is the same on both sides
        val whole = SuiteDecisions.decide(s.comparisons.map { it.copy(request = null) }, cells).single()
        assertThat(whole.decision.ratio!!).isBetween(0.99, 1.01)
    }

    @Test
    fun `a request's p99 is compared with figure p99`() {
        val (s, cells) = cells("- {a: $a, b: $b, request: read, figure: p99}", read = { 500.0 }, p99 = { if (it == "virtual") 30.0 else 10.0 })
        val d = SuiteDecisions.decide(s.comparisons, cells).single()
        assertThat(d.figure).isEqualTo("p99")
        assertThat(d.decision.ratio!!).isBetween(2.5, 3.0)
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
    }

    @Test
    fun `a request the compared cells did not measure leaves the comparison undecided, naming the requests they have`() {
        val (s, cells) = cells("- {a: $a, b: $b, request: reed}", read = { 500.0 })
        val d = SuiteDecisions.decide(s.comparisons, cells).single()
        assertThat(d.decided).isFalse()
        assertThat(d.decision.why).isEqualTo(
            "request 'reed' is not a named request of $a (its requests: read, write); request 'reed' is not a named request of $b (its requests: read, write)")
        assertThat(d.leftOut).containsExactly(d.decision.why)
    }

    @Test
    fun `request takes a figure a request has of its own, and a name`() {
        fun problems(compare: String) = (runCatching { suite(compare) }.exceptionOrNull() as SuiteException).problems.map { "${it.line}:${it.column} ${it.key}: ${it.message}" }
        assertThat(problems("- {a: $a, b: $b, request: read, figure: cpu}"))
            .containsExactly("9:92 compare[0].request: a named request has no figure 'cpu' of its own")
        assertThat(problems("- {a: $a, b: $b, request: ''}")).containsExactly("9:92 compare[0].request: is empty")
    }
}
