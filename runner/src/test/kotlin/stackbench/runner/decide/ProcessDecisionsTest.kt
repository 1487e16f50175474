package stackbench.runner.decide

import stackbench.runner.stats.Relation
import stackbench.runner.results.staged
import stackbench.runner.plan.Planner
import stackbench.runner.report.ReportFixtures
import stackbench.runner.results.CellResult
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Flag
import stackbench.runner.results.Processes
import stackbench.runner.stats.Look
import stackbench.runner.stats.SequentialLooks
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteComparison
import stackbench.runner.suite.SuiteParser
import kotlin.math.exp
import kotlin.math.ln
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.data.Offset
import org.junit.jupiter.api.Test

/** Suite comparisons decided with the process as the unit of replication, from synthetic cells: no server runs. */
class ProcessDecisionsTest {
    private fun suite(processes: Int, windows: Int) = SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: platform, stack: tomcat}, {name: virtual, stack: tomcat, virtual-threads: true}]
        endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
        load: {connections: [100]}
        restart: app
        processes: $processes
        repetitions: $windows
        compare:
          - {name: virtual vs platform, a: virtual/io-blocking-delay100/c100, b: platform/io-blocking-delay100/c100, threshold: 10%}
        """.trimIndent(), "t.yaml",
    )

    /**
     * The cells of a run of [processes] × [windows], as the runner records them with `restart: app`: every window
     * names its process, and the first window of a process started the app the others reuse.
     */
    private fun run(processes: Int, windows: Int, value: (app: String, process: Int, window: Int) -> Double): Pair<List<SuiteComparison>, List<CellResult>> {
        val s = suite(processes, windows)
        val plan = Planner.plan(s)
        val starters = mutableMapOf<String, String>()
        val cells = plan.cells.map { c ->
            val window = c.repetition - (c.process - 1) * windows
            val starter = starters.getOrPut(c.processLabel) { c.key }
            Fixtures.cell(c, throughput = value(c.app.name, c.process, window)).copy(appStartedBy = starter.takeIf { it != c.key })
        }
        return s.comparisons to cells
    }

    private fun geo(xs: List<Double>) = exp(xs.map { ln(it) }.average())

    @Test
    fun `two processes a side with three windows each, windows averaged per process, then Welch on their logarithms`() {
        // each process settles at its own level; its windows scatter a little around it
        val level = mapOf("virtual" to listOf(990.0, 1010.0), "platform" to listOf(500.0, 510.0))
        val (comparisons, cells) = run(2, 3) { app, p, w -> level.getValue(app)[p - 1] + (w - 2) * 2.0 }
        assertThat(cells.map { it.process }.distinct()).containsExactly("platform#1", "virtual#1", "platform#2", "virtual#2")
        val d = SuiteDecisions.decide(comparisons, cells).single()
        assertThat(d.decision.method).isEqualTo("welch-log-process-means")
        assertThat(d.decision.processesA to d.decision.processesB).isEqualTo(2 to 2)
        assertThat(d.decision.nA to d.decision.nB).isEqualTo(6 to 6)
        assertThat(d.processesRecorded).isTrue()
        // the ratio of geometric means over process means (each process's windows averaged first)
        assertThat(d.decision.ratio!!).isCloseTo(geo(listOf(990.0, 1010.0)) / geo(listOf(500.0, 510.0)), Offset.offset(1e-9))
        assertThat(d.decision.df!!).isGreaterThan(1.0)
        assertThat(d.decision.confidence).isEqualTo(0.95)
        assertThat(d.decision.look to d.decision.maxLooks).isEqualTo(1 to 1)
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
        // 2 against 2 processes: no exact rank test reaches 5 % (smallest p 1/3), so the interval decides alone, and says so
        assertThat(d.decision.why).contains("the exact rank test cannot reach p < 0.050 (smallest p 0.333)")
        assertThat(d.decision.pValue!!).isCloseTo(1.0 / 3, Offset.offset(1e-9))
    }

    @Test
    fun `one process a side is undecided, saying why, however far apart`() {
        val (comparisons, cells) = run(1, 3) { app, _, w -> (if (app == "virtual") 1000.0 else 500.0) + w }
        val d = SuiteDecisions.decide(comparisons, cells).single()
        assertThat(d.decided).isFalse()
        assertThat(d.decision.processesA to d.decision.processesB).isEqualTo(1 to 1)
        assertThat(d.decision.nA).isEqualTo(3)
        assertThat(d.decision.why).isEqualTo("1 process a side: an interval needs 2; set processes: 2 or more")
        assertThat(d.decision.ratio!!).isGreaterThan(1.9)
    }

    @Test
    fun `flagged windows are left out with their reasons, and a process that lost every window is named`() {
        val (comparisons, plain) = run(3, 2) { app, p, w -> (if (app == "virtual") 1000.0 else 500.0) + 7 * p + w }
        val compiling = Flag("host-slow", "the host ran 30 % slower than its pace", "throughput")
        // virtual's second process: both windows on a slow host; its third: one window
        val cells = plain.map { c ->
            if (c.app.name == "virtual" && (c.process == "virtual#2" || c.key.endsWith("/r6"))) c.copy(flags = listOf(compiling)) else c
        }
        val d = SuiteDecisions.decide(comparisons, cells).single()
        assertThat(d.leftOut).containsExactly(
            "virtual/io-blocking-delay100/c100/r3: flagged host-slow",
            "virtual/io-blocking-delay100/c100/r4: flagged host-slow",
            "virtual/io-blocking-delay100/c100/r6: flagged host-slow",
            "process virtual#2: all 2 window(s) left out",
        )
        assertThat(d.decision.processesA to d.decision.processesB).isEqualTo(2 to 3)
        assertThat(d.decision.nA to d.decision.nB).isEqualTo(3 to 6)
        assertThat(d.decided).isTrue()
    }

    @Test
    fun `a look records k and K and decides at the confidence alpha spending allows it`() {
        val (comparisons, cells) = run(3, 2) { app, p, w -> (if (app == "virtual") 1000.0 else 500.0) * (1 + 0.03 * (p - 2)) + w }
        val looks = SequentialLooks(3)
        val first = SuiteDecisions.decide(comparisons, cells, { Look(1, 3) }).single()
        val last = SuiteDecisions.decide(comparisons, cells, { Look(3, 3) }).single()
        assertThat(first.decision.look to first.decision.maxLooks).isEqualTo(1 to 3)
        assertThat(first.decision.confidence).isEqualTo(looks.confidenceAt(1))
        assertThat(last.decision.confidence).isEqualTo(looks.confidenceAt(3))
        // the first look spends almost nothing: a much wider interval than the last
        assertThat(first.decision.high!! - first.decision.low!!).isGreaterThan(2 * (last.decision.high!! - last.decision.low!!))
        assertThat(first.decision.why).contains("(look 1 of 3)")
        // a comparison decided at an earlier look keeps that decision
        val kept = SuiteDecisions.decide(comparisons, cells.take(4), { Look(2, 3) }, frozen = listOf(last)).single()
        assertThat(kept).isEqualTo(last)
    }

    @Test
    fun `an old results json without process fields reads, and each window counts as its own process, said so`() {
        val old = ReportFixtures.load(ReportFixtures.COMPARE_A)
        assertThat(old.cells).allMatch { it.process == null }
        assertThat(old.run.processes).isNull()
        assertThat(old.decisions).allMatch { it.decision.method == null }
        val keys = old.cells.map { it.configKey }.distinct()
        val d = SuiteDecisions.decide(listOf(SuiteComparison("old", keys[1], keys[0], 0.10)), old.cells).single()
        assertThat(d.processesRecorded).isFalse()
        assertThat(d.decision.why).endsWith("(${Processes.NOT_RECORDED})")
        val counted = old.cells.filter { it.configKey == keys[1] }.size - d.leftOut.count { it.startsWith(keys[1]) }
        assertThat(d.decision.processesA).isEqualTo(counted)
        assertThat(d.decision.nA).isEqualTo(counted)
    }

    @Test
    fun `a window of a slow host counts for a throughput at its Little's-law ceiling, and for nothing else`() {
        val level = mapOf("virtual" to 980.0, "platform" to 490.0)
        val (comparisons, plain) = run(2, 1) { app, p, _ -> level.getValue(app) + p }
        val unsteady = Flag("host-slow", "the host ran 30 % slower than its pace", "throughput")
        fun ceiling(c: CellResult, law: String, efficiency: Double) = c.copy(flags = listOf(unsteady)).staged(ceiling = stackbench.runner.results.Ceiling(law, c.window.measured!!.throughput / efficiency, "test", efficiency))
        // every window flagged; at 0.98 of a Little's-law ceiling the wait bound each rate, so all count
        val atWait = plain.map { ceiling(it, "Little's law", 0.98) }
        val d = SuiteDecisions.decide(comparisons, atWait).single()
        assertThat(d.decision.processesA to d.decision.processesB).isEqualTo(2 to 2)
        assertThat(d.leftOut).isEmpty()
        assertThat(d.waived).hasSize(4).allMatch { it.contains("host-slow, counted: windows at their Little's-law ceiling (within 5 %)") }
        assertThat(d.rules).isEqualTo(stackbench.runner.results.Flags.RULES)
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
        // below the ceiling's slack the JIT may have held the rate down: left out
        val under = plain.map { ceiling(it, "Little's law", 0.90) }
        assertThat(SuiteDecisions.decide(comparisons, under).single().leftOut).hasSize(4).allMatch { it.endsWith("flagged host-slow") }
        // a CPU-time ceiling is made of the JIT's code: nothing waived
        val cpu = plain.map { ceiling(it, "CPU time", 0.99) }
        assertThat(SuiteDecisions.decide(comparisons, cpu).single().decided).isFalse()
        // a latency figure of the same windows is still left out
        val p99 = comparisons.map { it.copy(figure = "p99") }
        assertThat(SuiteDecisions.decide(p99, atWait).single().leftOut).hasSize(4)
    }
}
