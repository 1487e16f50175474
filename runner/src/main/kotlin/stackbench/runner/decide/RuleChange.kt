package stackbench.runner.decide

import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.RunResult
import stackbench.runner.stats.Look
import stackbench.runner.stats.RatioDecision

/**
 * What the rule "no verdict lost to a flag about the app's state" (rules 2026-12-05.1) changes in a past run, read from
 * its cells: the measured windows left out of each figure its comparisons read, and its suite comparisons decided and
 * left with a side of no process, by the rule before (a flag about the app's own state took its window out, as an
 * instrument's did) and by this one ([Counting]: only flags about the instrument do; [Engine.decide] reads the
 * comparison again without the app-flagged windows). Every comparison is read at one look at 95 %, whatever looks the
 * run took. Pure.
 */
object RuleChange {
    data class Outcome(
        /** Measured windows: cells that finished with a window. */
        val windows: Int,
        /** Of them, left out of throughput by the rule before and now. */
        val leftOutBefore: Int,
        val leftOutNow: Int,
        /** The run's suite comparisons. */
        val comparisons: Int,
        /** Comparisons with a side that has no process left, by the rule before and now. */
        val emptySideBefore: Int,
        val emptySideNow: Int,
        /** Comparisons decided (higher, lower or the same), by the rule before and now. */
        val decidedBefore: Int,
        val decidedNow: Int,
    )

    fun of(result: RunResult): Outcome {
        val windows = result.cells.filter { it.status == CellStatus.OK && it.window.measured != null }
        val throughput = Figure.THROUGHPUT
        val readings = result.decisions.mapNotNull { d ->
            val figure = Figure.of(d.figure) ?: return@mapNotNull null
            val a = result.cells.filter { it.configKey == d.a }
            val b = result.cells.filter { it.configKey == d.b }
            val flagged = (a + b).filter { figure.appStateOf(it).isNotEmpty() }.toSet()
            Engine.decide(a - flagged, b - flagged, figure, d.decision.threshold, Look.SINGLE).ratio to Engine.decide(a, b, figure, d.decision.threshold, Look.SINGLE).ratio
        }
        fun empty(r: RatioDecision) = (r.processesA ?: 0) == 0 || (r.processesB ?: 0) == 0
        return Outcome(
            windows = windows.size,
            leftOutBefore = windows.count { leftOutBefore(it, throughput) },
            leftOutNow = windows.count { !Counting.counts(it, throughput) },
            comparisons = readings.size,
            emptySideBefore = readings.count { empty(it.first) }, emptySideNow = readings.count { empty(it.second) },
            decidedBefore = readings.count { it.first.decided }, decidedNow = readings.count { it.second.decided },
        )
    }

    /** Whether [cell] was left out of [figure] by the rule before this one. */
    fun leftOutBefore(cell: CellResult, figure: Figure): Boolean = !Counting.counts(cell, figure) || figure.appStateOf(cell).isNotEmpty()
}
