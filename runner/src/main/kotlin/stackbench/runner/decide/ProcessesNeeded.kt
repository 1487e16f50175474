package stackbench.runner.decide

import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.RunResult
import stackbench.runner.suite.SuiteComparison
import java.util.Locale

/**
 * Before a run: how many app processes a side each of a suite's comparisons needs for its band, from the same suite's
 * earlier run (the history's latest on this machine). Each decision records the fewest processes a side that would have
 * decided its ratio at the spread it measured ([DecisionRecord.processesNeeded]); `plan` sets that beside the processes
 * the plan runs, so a comparison that cannot decide is known before the machine time is spent. Pure.
 */
object ProcessesNeeded {
    /** One line per comparison of [comparisons]; [earlier]: the suite's latest run, null when the history has none. */
    fun lines(comparisons: List<SuiteComparison>, earlier: RunResult?, processes: Int): List<String> {
        if (comparisons.isEmpty()) return emptyList()
        if (earlier == null) return listOf("processes needed: no earlier run of this suite in the history to estimate from; a short run " +
            "(e.g. --scale 0.3) records each comparison's spread, and plan then says how many processes a side would decide it")
        val from = "from ${earlier.run.id} (${earlier.run.startedAt.take(10)})"
        return listOf("processes needed, $from; this plan runs $processes a side:") + comparisons.map { c ->
            val d = earlier.decisions.firstOrNull { it.name == c.name }
            "  ${c.name}: " + if (d == null) "not compared in that run" else line(d, c, processes)
        }
    }

    private fun line(d: DecisionRecord, c: SuiteComparison, processes: Int): String {
        val read = "read ${d.decision.ratio?.let { "%.2f×".format(Locale.ROOT, it) } ?: "no ratio"}" +
            (if (d.decision.low != null && d.decision.high != null) " [%.2f–%.2f]".format(Locale.ROOT, d.decision.low, d.decision.high) else "") +
            " over ${d.decision.processesA ?: "?"} and ${d.decision.processesB ?: "?"} processes"
        val band = "±%.0f %%".format(Locale.ROOT, c.threshold * 100)
        val needed = d.processesNeeded
        return when {
            d.decided -> "$read, decided ${d.decision.relation.id}" + (needed?.let { "; about $it a side decide it at that spread" } ?: "")
            needed == null -> "$read, undecided; at that ratio and spread 20 a side would not decide it against $band (the ratio lies near an edge of the band)"
            needed > processes -> "$read, undecided; about $needed a side would decide it against $band: set processes: $needed or more"
            else -> "$read, undecided; about $needed a side would decide it against $band, which this plan runs"
        }
    }
}
