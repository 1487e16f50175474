package stackbench.runner.report

import stackbench.runner.stats.Relation
import stackbench.runner.results.DecisionRecord
import stackbench.runner.stats.Decisions

/** A suite's comparisons, decided, as sentences for the report and the summary. Pure. */
object Decided {

    /** e.g. "a ÷ b = 1.97× [1.95–2.01]: higher, beyond ±10 % (3 and 3 processes, 3 and 3 windows, 95.0 % interval)" (a decision before processes: "(3 and 3 repetitions)"). [plain] escapes text from the results. */
    fun sentence(d: DecisionRecord, plain: (String) -> String): String {
        val verdict = verdict(d, plain)
        val left = (if (d.leftOut.isEmpty()) "" else "; left out: ${plain(d.leftOut.joinToString())}") +
            if (d.waived.isEmpty()) "" else "; counted although flagged: ${plain(d.waived.joinToString())}"
        val figure = if (d.figure == "throughput") "" else "${plain(d.figure)}: "
        val counts = if (d.decision.processesA != null && d.decision.processesB != null) {
            val look = if (d.decision.look != null && d.decision.maxLooks != null && d.decision.maxLooks > 1) "; look ${d.decision.look} of ${d.decision.maxLooks}" else ""
            val level = d.decision.confidence?.let { "%.1f %% interval".format(java.util.Locale.ROOT, it * 100) }?.takeIf { d.decision.low != null }?.let { ", $it" } ?: ""
            "${basis(d)}, ${d.decision.nA} and ${d.decision.nB} windows$level$look"
        } else "${d.decision.nA} and ${d.decision.nB} repetitions"
        return "$figure${plain(d.a)} ÷ ${plain(d.b)} = ${ratio(d)}${interval(d)}: $verdict ($counts${spread(d)}$left)"
    }

    /** The decided ratio, e.g. "1.97×", or "no ratio": every view writes it so. */
    fun ratio(d: DecisionRecord): String = d.decision.ratio?.let { "%.2f×".format(java.util.Locale.ROOT, it) } ?: "no ratio"

    /** Its interval, e.g. " [1.95–2.01]", or "" without one. */
    fun interval(d: DecisionRecord): String = if (d.decision.low != null && d.decision.high != null) " [%.2f–%.2f]".format(java.util.Locale.ROOT, d.decision.low, d.decision.high) else ""

    /** The verdict in the engine's words: "higher, beyond ±10 %", "the same within ±10 %", or "cannot tell yet: why". */
    fun verdict(d: DecisionRecord, plain: (String) -> String = { it }): String {
        val threshold = "±%.0f %%".format(java.util.Locale.ROOT, d.decision.threshold * 100)
        return when (d.decision.relation) {
            Relation.HIGHER -> "higher, beyond $threshold"
            Relation.LOWER -> "lower, beyond $threshold"
            Relation.SAME -> "the same within $threshold"
            else -> "cannot tell yet: ${plain(d.decision.why)}"
        }
    }

    /** The independent JVMs the decision rests on, e.g. "3 and 3 processes", "4 pairs of rounds", or "3 and 3 repetitions" before processes. */
    fun basis(d: DecisionRecord): String {
        val units = when {
            d.decision.processesA == null || d.decision.processesB == null -> return "${d.decision.nA} and ${d.decision.nB} repetitions"
            d.decision.method == Decisions.SHARED_PROCESSES -> "${d.decision.processesA} shared processes, each serving both sides"
            paired(d) -> "${d.decision.processesA} pairs of rounds"
            else -> "${d.decision.processesA} and ${d.decision.processesB} processes"
        }
        val jvms = d.jvms ?: return units
        return if (d.decision.method == Decisions.SHARED_PROCESSES) "$units: $jvms independent JVM${if (jvms == 1) "" else "s"}" else "$units, $jvms independent JVMs"
    }

    /** e.g. "; spread between processes 1.2 % and 0.8 %, within one 0.4 % and 0.3 %; 2 processes a side would decide this ratio". */
    fun spread(d: DecisionRecord): String {
        val a = d.spreadA ?: return ""
        val b = d.spreadB ?: return ""
        fun pct(x: Double) = "%.1f %%".format(java.util.Locale.ROOT, x * 100)
        val within = if (a.within != null && b.within != null) ", within one ${pct(a.within)} and ${pct(b.within)}" else " (one window a process: within included)"
        val unit = when {
            d.decision.method == Decisions.SHARED_PROCESSES -> "shared processes"
            paired(d) -> "pairs of rounds"
            else -> "processes a side"
        }
        val needed = d.processesNeeded?.let { "; $it $unit would decide this ratio" } ?: "; 20 $unit would not decide this ratio"
        return "; spread between processes ${pct(a.between)} and ${pct(b.between)}$within$needed"
    }

    /** Whether [d] was decided paired by round (`paired: true`). */
    fun paired(d: DecisionRecord): Boolean = d.decision.method == Decisions.PAIRED_ROUNDS

    fun count(decisions: List<DecisionRecord>): String = "${decisions.count { it.decided }} of ${decisions.size} decided"
}
