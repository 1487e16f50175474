package stackbench.runner.findings

import stackbench.runner.plan.Planner
import stackbench.runner.stats.Statistics
import stackbench.runner.suite.Restart
import stackbench.runner.suite.Suite
import stackbench.runner.suite.SuiteComparison

/** One row of one comparison of docs/claims.yaml, named as `findings-run` names it: `cpu-tomcat-pool: limit 50000`. */
data class ClaimRow(val comparison: Comparison, val row: Row) {
    val name: String get() = "${comparison.id}: ${row.name}"

    /** Why the row is measured but not compared in its run: it has no side b, or it claims nothing. */
    val uncompared: String? get() = when {
        row.b == null -> "no side b: set against the published figure"
        row.claimed(comparison.threshold) == null -> "claims nothing"
        else -> null
    }
}

/**
 * One run of a [FindingsPlan]: the run's suite narrowed to the configurations the selected rows' sides stand for
 * ([Suite.only]), deciding one comparison per [driven] row in place of its own `compare:` list.
 */
data class RunFocus(
    /** The run's name: its folder under docs/runs, and its suite in suites/. */
    val run: String,
    val suite: Suite,
    /** Rows with both sides in this run that claim something: `run --until-decided` repeats their cells until each is decided. */
    val driven: List<ClaimRow>,
    /** Rows with their other side in another run: their cells are measured in each, and `findings` decides them afterwards. */
    val acrossRuns: List<ClaimRow>,
    /** Rows measured here but compared by nothing while the run goes: [ClaimRow.uncompared] says why. */
    val measuredOnly: List<ClaimRow>,
    /** Rows outside the selection that read this run, whose cells the run does not measure: `findings` finds none for them. */
    val unmeasured: List<ClaimRow> = emptyList(),
) {
    /** The configurations the run measures, in the suite's order. */
    val configs: Set<String> get() = suite.only.orEmpty()
}

/** The runs `findings-run` makes for the ids it was given, in the order docs/claims.yaml first names them. */
data class FindingsPlan(val runs: List<RunFocus>)

/**
 * Plans exactly the cells the selected rows of docs/claims.yaml need, and the comparisons that decide them. Pure: the
 * suites come from [plan]'s `suiteOf`, and a side is matched against a planned cell by [Selector.matches], the same test
 * `findings` applies to the measured ones.
 */
object FindingsPlanner {

    /**
     * The cells of a run before its until-decided rounds. The process is the unit of a comparison (docs/methodology.md):
     * with `restart: cell` every repetition is a process, at least [Statistics.MIN_FOR_INTERVAL] of them ([repetitions]
     * more); with `restart: app` the configuration's app processes are, at least that many ([processes] more), each
     * holding the suite's windows ([repetitions] instead). A bad count is an [IllegalArgumentException] naming it.
     */
    fun cells(suite: Suite, scale: Double, repetitions: Int?, processes: Int?): stackbench.runner.plan.Plan {
        val min = Statistics.MIN_FOR_INTERVAL
        require(processes == null || processes >= min) { "--processes $processes cannot decide anything: a comparison needs $min processes a side" }
        return if (suite.restart == Restart.APP) {
            Planner.plan(suite, scale, repetitions ?: suite.repetitions, processes ?: maxOf(min, suite.processes))
        } else {
            // restart: cell: every cell a process of its own, processes × repetitions of them a configuration
            val each = suite.processes
            require(repetitions == null || repetitions * each >= min) {
                "--repetitions $repetitions cannot decide anything: with restart: cell each repetition is a process" +
                    (if (each > 1) " ($each a repetition, as processes: $each)" else "") + ", and a comparison needs $min a side"
            }
            Planner.plan(suite, scale, repetitions ?: maxOf((min + each - 1) / each, suite.repetitions))
        }
    }

    /**
     * [ids] select rows: a claim id the rows that test it, a comparison id all its rows, a run name every row's side in
     * that run; none selects every row that tests a claim. The other rows of docs/findings.md's tables whose cells are
     * not measured are listed ([RunFocus.unmeasured]: `findings` fills a table only from runs that have every row's cells;
     * name the runs to measure them too). Throws [IllegalArgumentException] for an unknown id, or for a side that matches no
     * configuration of its run's suite, or more than one.
     */
    fun plan(claims: Claims, ids: List<String>, suiteOf: (run: String) -> Suite): FindingsPlan {
        checkIds(claims, ids)
        val rows = claims.comparisons.flatMap { c -> c.rows.map { ClaimRow(c, it) } }
        val selected = rows.associateWith { r ->
            listOfNotNull(r.row.a, r.row.b).filter { s ->
                if (ids.isEmpty()) r.row.claimId != null else r.row.claimId in ids || r.comparison.id in ids || s.run in ids
            }
        }.filterValues { it.isNotEmpty() }
        val problems = mutableListOf<String>()
        val runs = FindingsUpdate.runNames(claims).mapNotNull { run ->
            val here = selected.filterValues { sides -> sides.any { it.run == run } }
            val others = rows.filter { r -> r !in selected && listOfNotNull(r.row.a, r.row.b).any { it.run == run } }
            if (here.isEmpty()) null else focus(run, here, others, suiteOf(run), problems)
        }
        require(problems.isEmpty()) { problems.joinToString("\n") }
        return FindingsPlan(runs)
    }

    /** Every id a claim, a comparison or a run of [claims]; else the ones that are, to choose from. */
    fun checkIds(claims: Claims, ids: List<String>) {
        val runs = FindingsUpdate.runNames(claims)
        val unknown = ids.filter { id -> claims.claims.none { it.id == id } && claims.comparisons.none { it.id == id } && id !in runs }
        require(unknown.isEmpty()) {
            "no claim, comparison or run named ${unknown.joinToString { "'$it'" }} in docs/claims.yaml; " +
                "claims: ${claims.claims.joinToString { it.id }}; runs: ${runs.joinToString()} (or a comparison's id)"
        }
    }

    private fun focus(run: String, rows: Map<ClaimRow, List<Selector>>, others: List<ClaimRow>, suite: Suite, problems: MutableList<String>): RunFocus? {
        // every configuration of the suite, once: what a side may stand for
        val cells = Planner.plan(suite, 1.0, 1).cells
        fun configOf(r: ClaimRow, side: Selector): String? {
            val keys = cells.filter { side.matches(it) }.map { it.configKey }.distinct()
            val which = if (side === r.row.a) "a" else "b"
            when {
                keys.isEmpty() -> problems += "${r.name}: side $which (${side.describe()}) matches no configuration of run $run (suite ${suite.source}); ./stackbench plan $run lists them"
                keys.size > 1 -> problems += "${r.name}: side $which (${side.describe()}) matches ${keys.size} configurations of run $run (${keys.joinToString()}); a side stands for one: name its connections, rate or method"
            }
            return keys.singleOrNull()
        }
        val keys = rows.flatMap { (r, sides) -> sides.filter { it.run == run }.map { (r to it) to configOf(r, it) } }.toMap()
        val configs = keys.values.filterNotNull().toSet()
        val driven = mutableListOf<ClaimRow>()
        val comparisons = mutableListOf<SuiteComparison>()
        val across = mutableListOf<ClaimRow>()
        val measured = mutableListOf<ClaimRow>()
        for ((r, sides) in rows) {
            val b = r.row.b
            when {
                b != null && r.row.a.run != b.run -> across += r
                r.uncompared != null || sides.size < 2 -> measured += r
                else -> {
                    val a = keys[r to r.row.a] ?: continue
                    val bKey = keys[r to b] ?: continue
                    driven += r
                    comparisons += SuiteComparison(r.name, a, bKey, r.comparison.threshold, figure = r.comparison.figure.id, paired = r.comparison.paired)
                }
            }
        }
        if (problems.isNotEmpty()) return null
        val ordered = cells.map { it.configKey }.distinct().filter { it in configs }.toCollection(LinkedHashSet())
        val unmeasured = others.filter { r ->
            listOfNotNull(r.row.a, r.row.b).filter { it.run == run }.any { side -> cells.none { it.configKey in configs && side.matches(it) } }
        }
        return RunFocus(run, suite.focused(ordered, comparisons), driven, across, measured, unmeasured)
    }
}
