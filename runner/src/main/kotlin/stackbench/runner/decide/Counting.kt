package stackbench.runner.decide

import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Flags

/**
 * The one counting rule: whether a window (a cell) counts for a figure, and if not, why. Every decision and every view
 * that states one (the suite's comparisons, `compare`, `gate`, `history`, the profile overhead, "what this run shows",
 * `findings`) counts windows by [leftOut]; nothing else decides which windows count.
 *
 * A window counts for [Figure] when it finished OK, measured something, has a value of that figure, carries no flag
 * that takes it out of that figure ([Figure.leftOutBy]: the disqualifying flags less the figure's waiver, and for a
 * percentile the timeouts that hide its tail) and, set against an isolated side, was itself measured under the lab's
 * isolation ([NOT_ISOLATED]). Pure.
 */
object Counting {
    /** Why a not-isolated cell is left out of a comparison with an isolated side. */
    const val NOT_ISOLATED = "not-isolated: a url app is not measured under the lab's isolation, so it is not compared with an app that is"

    /** Why [c] does not count for [figure], or null when it does; [againstIsolated]: the other side of its comparison was isolated. */
    fun leftOut(c: CellResult, figure: Figure, againstIsolated: Boolean = false): String? {
        if (againstIsolated && notIsolated(c)) return NOT_ISOLATED
        val flags = figure.leftOutBy(c)
        return when {
            c.status != CellStatus.OK -> c.status.name.lowercase()
            flags.isNotEmpty() -> "flagged ${flags.joinToString { it.code }}"
            c.window.measured == null -> "nothing measured"
            value(c, figure) == null -> "no ${figure.id}"
            else -> null
        }
    }

    fun counts(c: CellResult, figure: Figure, againstIsolated: Boolean = false): Boolean = leftOut(c, figure, againstIsolated) == null

    /** [c]'s value of [figure], null when it has none (NaN is none). */
    fun value(c: CellResult, figure: Figure): Double? = figure.value(c)?.takeUnless { it.isNaN() }

    /** Whether [c] was measured outside the lab's isolation (a `url:` app). */
    fun notIsolated(c: CellResult): Boolean = c.flags.any { it.code == Flags.NOT_ISOLATED }
}
