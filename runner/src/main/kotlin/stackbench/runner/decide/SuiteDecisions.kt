package stackbench.runner.decide

import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Flags
import stackbench.runner.results.RunResult
import stackbench.runner.results.Settlings
import stackbench.runner.results.SpreadRecord
import stackbench.runner.stats.Components
import stackbench.runner.stats.Look
import stackbench.runner.stats.PairedRatio
import stackbench.runner.stats.VarianceComponents
import stackbench.runner.suite.SuiteComparison
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * Decides a suite's comparisons from a run's cells, with the process as the unit of replication
 * ([Decisions.processes]): each side's figure (throughput unless the comparison names another, read as `findings`
 * reads it: [Figure]) per window, the windows of each app process averaged first, a ÷ b as the ratio of geometric
 * means over process means with Welch's interval at the confidence of the look ([Look]: `--until-decided` spends its
 * 5 % over a number of looks fixed before the data). Only the windows the one counting rule counts ([Counting]: finished
 * OK, no disqualifying flag for the figure such as a window still warming, too few round trips, a client-bound load...); the others are
 * named as left out, and so is a process all of whose windows were left out, so a comparison resting on them stays
 * undecided and `--until-decided` runs more. Cells without a recorded process (older runs) count each as its own
 * process, and the decision says so. Pure.
 *
 * A comparison with `paired: true` pairs process k of a with process k of b instead ([Decisions.paired]): the same
 * round of the plan, minutes apart, so that the machine's drift between rounds cancels in each pair's ratio.
 *
 * A cell of a service the lab did not start (flagged `not-isolated`: a url: app) is measured under none of the lab's
 * isolation: it counts against another such cell, but never against an isolated one. Set against an isolated side,
 * it is left out with the reason ([NOT_ISOLATED]), so the comparison stays undecided and says why; no further round
 * can change that, so `--until-decided` does not run one for it ([openConfigs]).
 */
object SuiteDecisions {
    /** Why a not-isolated cell is left out of a comparison with an isolated side ([Counting]). */
    const val NOT_ISOLATED = Counting.NOT_ISOLATED

    /**
     * Decides [comparisons] from [cells], each at the look [lookOf] gives it (one look of one, 95 %, unless
     * `--until-decided` planned more). A comparison in [frozen] (decided at an earlier look) keeps that record:
     * a group-sequential design stops a comparison at the look that decided it.
     */
    fun decide(
        comparisons: List<SuiteComparison>, cells: List<CellResult>,
        lookOf: (SuiteComparison) -> Look = { Look.SINGLE }, frozen: List<DecisionRecord> = emptyList(),
    ): List<DecisionRecord> = comparisons.map { c ->
        frozen.firstOrNull { it.name == c.name && it.a == c.a && it.b == c.b && it.decided } ?: decideOne(c, cells, lookOf(c))
    }

    /**
     * A past run's own comparisons ([RunResult.decisions]) decided again from [cells] (its own unless given) under
     * today's rules, each at the look it recorded, else at [unrecorded]'s (one look of one unless given), as `findings`
     * decides the claims' rows: from every cell of the run, none frozen.
     */
    fun again(
        result: RunResult, cells: List<CellResult> = result.cells,
        unrecorded: (SuiteComparison) -> Look = { Look.SINGLE },
    ): List<DecisionRecord> = decide(
        result.decisions.map { SuiteComparison(it.name, it.a, it.b, it.decision.threshold, figure = it.figure,
            paired = it.decision.method == stackbench.runner.stats.Decisions.PAIRED_ROUNDS, request = it.request) },
        cells,
        lookOf = { c ->
            result.decisions.firstOrNull { it.name == c.name }?.let { d -> d.decision.look?.let { k -> d.decision.maxLooks?.let { Look(k, it) } } } ?: unrecorded(c)
        },
    )

    private fun decideOne(c: SuiteComparison, all: List<CellResult>, look: Look): DecisionRecord {
        val cells = if (c.request == null) all else ForRequest.cells(c, all) ?: return ForRequest.missing(c, all)
        val figure = requireNotNull(Figure.of(c.figure)) { "comparison '${c.name}': '${c.figure}' is not a figure (${Figure.ids.joinToString()})" }
        // a side is isolated when it has cells and they are not flagged not-isolated (every cell of a url app is, whatever its status)
        fun isolated(configKey: String) = cells.any { it.configKey == configKey && !notIsolated(it) }
        val engine = Engine.decide(cells.filter { it.configKey == c.a }, cells.filter { it.configKey == c.b }, figure, c.threshold, look,
            c.paired, aAgainstIsolated = isolated(c.b), bAgainstIsolated = isolated(c.a))
        val (a, b, d) = Triple(engine.a, engine.b, engine.ratio)
        val recorded = a.recorded && b.recorded
        val (spreadA, spreadB) = Components.of(a.processes) to Components.of(b.processes)
        return DecisionRecord(
            name = c.name, a = c.a, b = c.b, figure = c.figure, request = c.request,
            decision = d.copy(why = d.why + falling(c.a, cells) + falling(c.b, cells)),
            leftOut = a.leftOut + b.leftOut, processesRecorded = recorded,
            waived = waived(c.a, figure, cells) + waived(c.b, figure, cells), rules = Flags.RULES,
            spreadA = spreadA?.let(::spread), spreadB = spreadB?.let(::spread),
            jvms = engine.jvms,
            processesNeeded = if (engine.sharedProcesses) pairsNeeded(a.byProcess, b.byProcess, d.ratio, c.threshold, d.confidence)
            else if (c.paired) pairsNeeded(a.rounds, b.rounds, d.ratio, c.threshold, d.confidence) else if (spreadA != null && spreadB != null && d.ratio != null) Components.processesNeeded(spreadA, spreadB, d.ratio,
                c.threshold, d.confidence ?: Look.SINGLE.confidence, minOf(spreadA.windowsPerProcess, spreadB.windowsPerProcess)) else null,
        )
    }

    /** The configuration keys of the comparisons still undecided, less those a url app against an isolated one leaves undecidable. */
    fun openConfigs(decisions: List<DecisionRecord>): Set<String> =
        decisions.filter { !it.decided && it.leftOut.none { why -> why.endsWith(": $NOT_ISOLATED") } }.flatMap { listOf(it.a, it.b) }.toSet()

    /** Why a paired comparison of cells without a recorded process cannot pair them. */
    const val UNRECORDED = Engine.UNRECORDED

    /** The pairs that would decide [ratio], from the spread of the rounds' log ratios so far (null: fewer than 3 pairs, or 20 would not). */
    private fun pairsNeeded(a: Map<String, List<Double>>, b: Map<String, List<Double>>, ratio: Double?, threshold: Double, confidence: Double?): Int? {
        val logs = a.keys.filter { it in b }.map { r -> ln(a.getValue(r).average()) - ln(b.getValue(r).average()) }.filter { it.isFinite() }
        if (ratio == null || logs.size < 3) return null
        val m = logs.average()
        return PairedRatio.pairsNeeded(logs.sumOf { (it - m) * (it - m) } / (logs.size - 1), ratio, threshold, confidence ?: Look.SINGLE.confidence)
    }

    private fun notIsolated(c: CellResult) = Counting.notIsolated(c)

    /**
     * A side whose processes fall through their warm-ups says so in the verdict's words ([Settlings.fallingNote]): the
     * app slowing as it runs is a finding whether or not its windows counted; "" when none falls.
     */
    private fun falling(configKey: String, cells: List<CellResult>): String =
        Settlings.fallingNote(cells.filter { it.configKey == configKey && it.status == CellStatus.OK })?.let { "; $configKey: $it" } ?: ""

    private fun spread(c: VarianceComponents) = SpreadRecord(c.processes, c.windowsPerProcess, sqrt(c.between), c.within?.let { sqrt(it) })

    /** The windows of [configKey] that count although flagged: each with its waived flags and why. */
    private fun waived(configKey: String, figure: Figure, cells: List<CellResult>): List<String> =
        cells.filter { it.configKey == configKey && Counting.counts(it, figure) }.mapNotNull { c ->
            Flags.waived(c, figure.waiver).takeIf { it.isNotEmpty() }?.let { w -> "${c.key}: ${w.joinToString { it.first.code }}, counted: ${w.first().second}" }
        }

}
