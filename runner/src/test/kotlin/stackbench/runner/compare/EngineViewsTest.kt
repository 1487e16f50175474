package stackbench.runner.compare

import stackbench.runner.stats.Relation
import stackbench.runner.cli.SummaryTable
import stackbench.runner.decide.SuiteDecisions
import stackbench.runner.gate.Gate
import stackbench.runner.gate.GateMarkdown
import stackbench.runner.plan.Planner
import stackbench.runner.report.Decided
import stackbench.runner.report.HtmlReport
import stackbench.runner.report.MarkdownSummary
import stackbench.runner.results.CellResult
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Flag
import stackbench.runner.results.RunResult
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteComparison
import stackbench.runner.suite.SuiteParser
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * One question, one answer: the same two sets of app processes, decided by `compare`, by `gate`, and as a suite's
 * comparison shown in the terminal table, summary.md and report.html, give one decision and one interval, worded alike.
 *
 * A run of three configurations (three app processes each, one window a process, one window of `slow` flagged
 * `host-slow`) is split into two runs that hold each configuration under one key: `compare A B` and `gate` then decide
 * B ÷ A per configuration, and the run itself decides the same pairs as its suite's comparisons.
 */
class EngineViewsTest {
    private val suite = SuiteParser(MachineFacts(2)).parse(
        """
        name: views
        apps: [{name: base, stack: tomcat}, {name: fast, stack: tomcat, virtual-threads: true}, {name: same, stack: jetty}, {name: slow, stack: undertow}]
        endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
        load: {connections: [100]}
        restart: app
        processes: 3
        repetitions: 1
        """.trimIndent(), "views.yaml",
    )
    private val cells: List<CellResult> = Planner.plan(suite).cells.map { c ->
        val level = mapOf("base" to 1000.0, "fast" to 1500.0, "same" to 1010.0, "slow" to 700.0).getValue(c.app.name)
        val noise = listOf(1.0, 1.02, 0.985)[c.process - 1]
        val cell = Fixtures.cell(c, throughput = level * noise)
        if (c.app.name == "slow" && c.process == 2) cell.copy(flags = listOf(Flag("host-slow", "the host ran 30 % slower than its pace", "throughput"))) else cell
    }
    private fun key(app: String) = cells.first { it.app.name == app }.configKey
    private val others = listOf("fast", "same", "slow")

    /** The same processes as two runs: A holds `base` under each other configuration's key, B that configuration. */
    private fun asRun(id: String, cells: List<CellResult>) = RunResult(run = Fixtures.info(cells.size).copy(id = id, suite = "views"), environment = Fixtures.environment(), cells = cells)
    private val runA = asRun("a", others.flatMap { o -> cells.filter { it.app.name == "base" }.map { c -> c.copy(configKey = key(o), key = c.key.replace(key("base"), key(o)), appStartedBy = "$o:${c.appStartedBy}") } })
    private val runB = asRun("b", cells.filter { it.app.name in others })

    private val decided: List<DecisionRecord> = SuiteDecisions.decide(others.map { SuiteComparison("$it vs base", key(it), key("base"), 0.10) }, cells)
    private val run = asRun("views", cells).copy(decisions = decided)

    @Test
    fun `compare, gate, the terminal table, summary md and the report give one decision and one interval per configuration`() {
        val compare = Comparisons.of(runA, runB, 0.10)
        val gate = Gate.decide(runA, runB, 0.10)
        val terminal = SummaryTable.decisions(run)
        val summary = MarkdownSummary.render(run)
        val report = HtmlReport.render(run)
        val compareText = CompareText.render(compare)
        val gateText = GateMarkdown.render(gate)
        assertThat(decided.map { it.decision.relation }).containsExactly(Relation.HIGHER, Relation.SAME, Relation.LOWER)
        for ((o, suiteDecision) in others.zip(decided)) {
            val fromCompare = compare.changes.single { it.configKey == key(o) }.throughput
            val fromGate = gate.cells.single { it.configKey == key(o) }.throughput
            for (d in listOf(fromCompare, fromGate)) {
                assertThat(listOf(d.decision.ratio, d.decision.low, d.decision.high, d.decision.relation, d.decision.processesA, d.decision.processesB, d.jvms)).`as`(o)
                    .isEqualTo(listOf(suiteDecision.decision.ratio, suiteDecision.decision.low, suiteDecision.decision.high, suiteDecision.decision.relation,
                        suiteDecision.decision.processesA, suiteDecision.decision.processesB, suiteDecision.jvms))
            }
            val figure = Decided.ratio(suiteDecision) + Decided.interval(suiteDecision)
            val verdict = Decided.verdict(suiteDecision)
            for ((view, text) in listOf("terminal" to terminal, "summary.md" to summary, "report.html" to report, "compare" to compareText, "gate" to gateText)) {
                assertThat(text).`as`("$o in $view").contains(figure)
            }
            for ((view, text) in listOf("summary.md" to summary, "report.html" to report, "compare" to compareText)) {
                assertThat(text).`as`("$o's verdict in $view").contains(verdict.substringBefore(":"))
            }
            assertThat(terminal).contains(Decided.basis(suiteDecision))
        }
        // the flagged window of `slow` is left out by every view's one rule: two of its three processes count
        assertThat(decided[2].decision.processesA).isEqualTo(2)
        assertThat(decided[2].leftOut).singleElement().asString().endsWith(": flagged host-slow")
    }

    @Test
    fun `two endpoints served by the same app processes are paired within each process, each JVM counted once`() {
        val shared = SuiteParser(MachineFacts(2)).parse(
            """
            name: shared
            apps: [{name: tomcat, stack: tomcat}]
            endpoints: [{kind: cpu, strategies: [direct, completable-future], limit: 1000}]
            restart: app
            processes: 3
            repetitions: 1
            """.trimIndent(), "shared.yaml",
        )
        // each JVM settles at its own level (±15 %), which both its endpoints share; the pool costs 5 % within each
        val level = listOf(1000.0, 1150.0, 870.0)
        val inner = listOf(0.951, 0.949, 0.950)
        val planned = Planner.plan(shared).cells
        // as the runner records `restart: app`: a process's later cells name the cell that started it
        val starter = planned.groupBy { it.process }.mapValues { (_, cs) -> cs.minBy { it.index }.key }
        val sharedCells = planned.map { c ->
            Fixtures.cell(c, throughput = level[c.process - 1] * if (c.endpoint.strategy == "completable-future") inner[c.process - 1] else 1.0)
                .copy(appStartedBy = starter.getValue(c.process).takeIf { it != c.key })
        }
        val pool = sharedCells.first { it.endpoint.strategy == "completable-future" }.configKey
        val direct = sharedCells.first { it.endpoint.strategy == "direct" }.configKey
        val d = SuiteDecisions.decide(listOf(SuiteComparison("pool vs direct", pool, direct, 0.10)), sharedCells).single()
        assertThat(d.decision.method).isEqualTo(stackbench.runner.stats.Decisions.SHARED_PROCESSES)
        assertThat(d.jvms).isEqualTo(3)
        assertThat(d.decision.ratio!!).isCloseTo(0.95, org.assertj.core.data.Offset.offset(0.001))
        assertThat(d.decision.relation).isEqualTo(Relation.SAME)
        assertThat(Decided.basis(d)).isEqualTo("3 shared processes, each serving both sides: 3 independent JVMs")
    }
}
