package stackbench.runner.report

import stackbench.runner.results.RunResult

/**
 * How many cells a run recorded against what it planned, as its headers say it: "24 of 24 cells". A capacity search's
 * steps are chosen as it goes (plan/CapacityPolicy), so its run plans none of them ahead: "107 cells, the steps of 12
 * capacity searches" (and the planned ones, when the run has both), never "107 of 0".
 */
object CellCount {
    /** [bold] marks the counts (the HTML header's `<b>`); the words stay plain. */
    fun of(result: RunResult, bold: (String) -> String = { it }): String {
        val recorded = result.cells.size
        val planned = result.run.plannedCells
        val searches = result.searches.size
        val steps = "the steps of $searches capacity ${if (searches == 1) "search" else "searches"}"
        return when {
            searches == 0 -> "${bold("$recorded")} of $planned cells"
            planned == 0 -> "${bold("$recorded")} cells, $steps"
            else -> "${bold("$recorded")} cells: $planned planned and $steps"
        }
    }
}
