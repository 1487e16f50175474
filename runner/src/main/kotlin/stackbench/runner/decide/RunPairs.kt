package stackbench.runner.decide

import stackbench.runner.results.CellResult
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.RunResult
import stackbench.runner.suite.SuiteComparison

/**
 * The same configuration in two runs, decided by the suite comparisons' engine ([SuiteDecisions]): the later run ÷ the
 * earlier of a figure, over app processes, with the one counting rule. `compare` and `gate` both ask it, so that they
 * give the same decision and interval for the same two runs. Pure.
 */
object RunPairs {
    const val LATER = "current"
    const val EARLIER = "baseline"

    /** [figure] of configuration [configKey], [later] ÷ [earlier], against the band ±[threshold]. */
    fun decide(earlier: RunResult, later: RunResult, configKey: String, figure: String, threshold: Double): DecisionRecord =
        decide(earlier, later, configKey, listOf(figure), threshold).single()

    /** Each of [figures] of [configKey], in their order. */
    fun decide(earlier: RunResult, later: RunResult, configKey: String, figures: List<String>, threshold: Double): List<DecisionRecord> {
        val cells = relabeled(earlier, EARLIER) + relabeled(later, LATER)
        return SuiteDecisions.decide(figures.map { SuiteComparison(configKey, "$LATER:$configKey", "$EARLIER:$configKey", threshold, figure = it) }, cells)
    }

    /** The configuration keys measured in both runs, in the later run's order. */
    fun common(earlier: RunResult, later: RunResult): List<String> =
        later.cells.map { it.configKey }.distinct().filter { k -> earlier.cells.any { it.configKey == k } }

    /**
     * [run]'s cells with their configuration keys, cell keys and process identities prefixed by [side], so that the
     * two runs' cells live in one list as the two sides of a suite comparison and no process of one is taken for the other's.
     */
    private fun relabeled(run: RunResult, side: String): List<CellResult> = run.cells.map { c ->
        c.copy(configKey = "$side:${c.configKey}", key = "$side:${c.key}", appStartedBy = c.appStartedBy?.let { "$side:$it" })
    }
}
