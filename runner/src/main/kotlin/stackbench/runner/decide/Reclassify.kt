package stackbench.runner.decide

import stackbench.runner.probe.ResourceSummaries
import stackbench.runner.probe.WindowFigures
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Flag
import stackbench.runner.results.Flags
import stackbench.runner.results.RunResult

/**
 * A past run's windows classified again by today's [stackbench.runner.stats.WindowClassifier], from the per-second
 * series computed again from the samples every cell keeps ([ResourceSummaries.serverPerSecondAgain]; the recorded
 * `resources.serverPerSecond` when they hold no counter reading): when the classifier improves (a brief dip in a long
 * window no longer reads as warming) or the series does (seconds the app's stats channel did not answer are no longer
 * filled in), runs measured before it get the same reading without being measured again.
 *
 * Only what the classifier decides changes: a window's shape, its steady second, its reason, its shape flag
 * ([Flags.shape]) and the series it was read from; the shape it was first recorded with stays beside it
 * ([stackbench.runner.results.WindowRecord.reclassifiedFrom]).
 * A window whose shape comes out the same is left as it was. The run's own comparisons (`decisions`) are decided
 * again from the cells, as the flags they leave out may have changed, and so are decisions recorded under other rules
 * of which windows count ([Flags.RULES]). Pure.
 */
object Reclassify {
    /** A window whose shape changed: the cell, the shapes before and after, and the new reason. */
    data class Change(val key: String, val from: String, val to: String, val reason: String)

    data class Outcome(
        val result: RunResult,
        val changes: List<Change>,
        /** Windows classified again whose shape stayed. */
        val same: Int,
        /** Cells with no window to classify: not OK, or no per-second series recorded. */
        val without: Int,
    )

    fun run(result: RunResult): Outcome {
        val changes = mutableListOf<Change>()
        var same = 0
        var without = 0
        val cells = result.cells.map { cell ->
            val old = cell.window.shape
            val series = cell.resources.summary?.serverPerSecond?.let { ResourceSummaries.serverPerSecondAgain(cell.resources.samples, it) }
            val new = if (old != null && series != null && cell.status == CellStatus.OK) WindowFigures.reshape(old, series) else null
            if (old == null || new == null) {
                without++
                cell
            } else if (new.shape == old.shape) {
                same++
                cell
            } else {
                changes += Change(cell.key, old.shape, new.shape, new.reason)
                cell.copy(
                    window = cell.window.copy(shape = new.copy(reclassifiedFrom = old.reclassifiedFrom ?: "${old.shape}: ${old.reason}")),
                    resources = cell.resources.copy(summary = cell.resources.summary?.copy(serverPerSecond = series!!)),
                    flags = reflag(cell, Flags.shape(new)),
                )
            }
        }
        // decided again when a shape changed, or when a decision was made under other rules of which windows count
        val stale = result.decisions.any { it.rules != Flags.RULES }
        val decisions = if (changes.isEmpty() && !stale) result.decisions else SuiteDecisions.again(result, cells)
        return Outcome(result.copy(cells = cells, decisions = decisions), changes, same, without)
    }

    /** [cell]'s flags with its shape flag replaced by [flag] (in its place), dropped when null, or added at the end. */
    private fun reflag(cell: CellResult, flag: Flag?): List<Flag> {
        val at = cell.flags.indexOfFirst { it.code in Flags.SHAPES }
        val kept = cell.flags.filterNot { it.code in Flags.SHAPES }.toMutableList()
        if (flag != null) kept.add(if (at < 0) kept.size else at, flag)
        return kept
    }
}
