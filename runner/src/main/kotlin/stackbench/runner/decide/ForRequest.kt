package stackbench.runner.decide

import stackbench.runner.results.CellResult
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.NamedRequests
import stackbench.runner.stats.Decisions
import stackbench.runner.stats.RatioDecision
import stackbench.runner.stats.Relation
import stackbench.runner.suite.SuiteComparison

/**
 * A comparison of one named request (`request: read`): both sides' cells read as that request alone
 * ([NamedRequests.alone]), so the engine, the counting rule and the words are those of every comparison. A request
 * that a side's cells did not measure is no figure of 0: the comparison is not decided, and says which requests they
 * have. Pure.
 */
internal object ForRequest {
    /** [cells] with the cells of [c]'s two sides read as its request alone; null when a side's measured cells lack it. */
    fun cells(c: SuiteComparison, cells: List<CellResult>): List<CellResult>? {
        val name = c.request ?: return cells
        if (why(c, cells) != null) return null
        return cells.map { cell -> if (cell.configKey == c.a || cell.configKey == c.b) NamedRequests.alone(cell, name) ?: cell else cell }
    }

    /** Why [c]'s request cannot be read from [cells]; null when both sides have it. */
    fun why(c: SuiteComparison, cells: List<CellResult>): String? {
        val name = c.request ?: return null
        return listOfNotNull(NamedRequests.missing(c.a, cells, name), NamedRequests.missing(c.b, cells, name)).distinct()
            .takeIf { it.isNotEmpty() }?.joinToString("; ")
    }

    /** [c] undecided because a side lacks its request, with why: the name of a request the compared cells do not have. */
    fun missing(c: SuiteComparison, cells: List<CellResult>): DecisionRecord {
        val why = why(c, cells) ?: "request '${c.request}' is not a named request of the compared cells"
        return DecisionRecord(
            name = c.name, a = c.a, b = c.b, figure = c.figure, request = c.request,
            decision = RatioDecision(null, null, null, null, 0, 0, c.threshold, Relation.UNDECIDED, why, Decisions.PROCESS_MEANS),
            leftOut = listOf(why),
        )
    }
}
