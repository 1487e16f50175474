package stackbench.runner.compare

import stackbench.runner.findings.Figure
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Flags
import stackbench.runner.stats.Decisions
import stackbench.runner.suite.SuiteComparison

/**
 * Decides a suite's comparisons from a run's cells: each side's figure (throughput unless the comparison names
 * another, read as `findings` reads it: [Figure]) over its repetitions, a ÷ b against the comparison's threshold
 * ([Decisions.ratio]). Only cells that finished OK and carry no disqualifying flag ([Flags.disqualifying]: a window
 * still warming, too few round trips, a client-bound load...) count; the others are named as left out, so a
 * comparison resting on them stays undecided and `--until-decided` runs more. Pure.
 *
 * A cell of a service the lab did not start (flagged `not-isolated`: a url: app) is measured under none of the lab's
 * isolation: it counts against another such cell, but never against an isolated one. Set against an isolated side,
 * it is left out with the reason ([NOT_ISOLATED]), so the comparison stays undecided and says why; no further round
 * can change that, so `--until-decided` does not run one for it ([openConfigs]).
 */
object SuiteDecisions {
    /** Why a not-isolated cell is left out of a comparison with an isolated side. */
    const val NOT_ISOLATED = "not-isolated: a url app is not measured under the lab's isolation, so it is not compared with an app that is"

    fun decide(comparisons: List<SuiteComparison>, cells: List<CellResult>): List<DecisionRecord> = comparisons.map { c ->
        val figure = requireNotNull(Figure.of(c.figure)) { "comparison '${c.name}': '${c.figure}' is not a figure (${Figure.ids.joinToString()})" }
        // a side is isolated when it has cells and they are not flagged not-isolated (every cell of a url app is, whatever its status)
        fun isolated(configKey: String) = cells.any { it.configKey == configKey && !notIsolated(it) }
        val a = side(c.a, figure, cells, otherIsolated = isolated(c.b))
        val b = side(c.b, figure, cells, otherIsolated = isolated(c.a))
        val d = Decisions.ratio(a.values, b.values, c.threshold)
        DecisionRecord(
            name = c.name, a = c.a, b = c.b, threshold = c.threshold,
            ratio = d.ratio, low = d.low, high = d.high, pValue = d.pValue, nA = d.nA, nB = d.nB,
            relation = d.relation.name.lowercase(), decided = d.decided, why = d.why,
            leftOut = a.leftOut + b.leftOut, figure = c.figure,
        )
    }

    /** The configuration keys of the comparisons still undecided, less those a url app against an isolated one leaves undecidable. */
    fun openConfigs(decisions: List<DecisionRecord>): Set<String> =
        decisions.filter { !it.decided && it.leftOut.none { why -> why.endsWith(": $NOT_ISOLATED") } }.flatMap { listOf(it.a, it.b) }.toSet()

    private class Side(val values: List<Double>, val leftOut: List<String>)

    private fun notIsolated(c: CellResult) = c.flags.any { it.code == Flags.NOT_ISOLATED }

    private fun side(configKey: String, figure: Figure, cells: List<CellResult>, otherIsolated: Boolean): Side {
        val mine = cells.filter { it.configKey == configKey }
        val why = mine.associateWith { if (otherIsolated && notIsolated(it)) NOT_ISOLATED else leftOutBecause(it, figure) }
        val values = mine.filter { why[it] == null }.map { value(it, figure)!! }
        return Side(values, mine.mapNotNull { c -> why[c]?.let { "${c.key}: $it" } })
    }

    /** Why [c] does not count, or null when it does. */
    private fun leftOutBecause(c: CellResult, figure: Figure): String? {
        val flags = Flags.disqualifying(c, figure.waiver)
        return when {
            c.status != CellStatus.OK -> c.status.name.lowercase()
            flags.isNotEmpty() -> "flagged ${flags.joinToString { it.code }}"
            c.measured == null -> "nothing measured"
            value(c, figure) == null -> "no ${figure.id}"
            else -> null
        }
    }

    private fun value(c: CellResult, figure: Figure): Double? = figure.value(c)?.takeUnless { it.isNaN() }
}
