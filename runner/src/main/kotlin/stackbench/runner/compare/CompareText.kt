package stackbench.runner.compare

import stackbench.runner.report.Format
import stackbench.runner.stats.Change
import stackbench.runner.stats.Estimate
import stackbench.runner.stats.Statistics
import stackbench.runner.stats.Verdict

/** Words and figures shared by the terminal and HTML views of a comparison. */
object CompareWords {
    enum class Figure(val title: String, val unit: String, val higherIsBetter: Boolean) { THROUGHPUT("req/s", "req/s", true), P99("p99", "ms", false) }

    fun value(f: Figure, v: Double?) = if (f == Figure.THROUGHPUT) Format.rate(v) else Format.ms(v)

    /** A side's median and its spread over repetitions: the 95 % bootstrap interval from 3 on, else the range. */
    fun estimate(f: Figure, e: Estimate): String = value(f, e.median) + when {
        e.low != null -> " [${value(f, e.low)}–${value(f, e.high)}]"
        e.n > 1 -> " (range ${value(f, e.values.min())}–${value(f, e.values.max())})"
        else -> ""
    } + " n=${e.n}"

    /** The relative change of medians, its bootstrap interval and the Mann-Whitney p-value where there are enough repetitions. */
    fun change(c: Change): String = Format.change(c.relative) +
        (if (c.low != null) " [${Format.change(c.low)} to ${Format.change(c.high)}]" else "") +
        (c.pValue?.let { ", p ${Format.p(it)}" } ?: "")

    fun verdict(f: Figure, c: Change): String = when (c.verdict) {
        Verdict.BETTER -> if (f.higherIsBetter) "higher: better, and the repetitions support it" else "higher: worse, and the repetitions support it"
        Verdict.WORSE -> if (f.higherIsBetter) "lower: worse, and the repetitions support it" else "lower: better, and the repetitions support it"
        Verdict.NO_CHANGE -> "no change the repetitions can tell"
        Verdict.CANNOT_TELL -> if (minOf(c.before.n, c.after.n) == 1) "cannot tell: a single repetition"
            else "cannot tell: ${c.before.n} and ${c.after.n} repetitions, fewer than ${Statistics.MIN_FOR_INTERVAL} on a side"
    }

    /** true: a supported improvement; false: a supported regression; null: nothing the repetitions support. */
    fun good(f: Figure, c: Change): Boolean? = when (c.verdict) {
        Verdict.BETTER -> f.higherIsBetter
        Verdict.WORSE -> !f.higherIsBetter
        else -> null
    }
}

/** The comparison as the terminal shows it. */
object CompareText {
    fun render(c: Comparison): String = buildString {
        appendLine("compare  A: ${c.a.run.id}  →  B: ${c.b.run.id}")
        appendLine()
        if (c.differences.isEmpty()) appendLine("Environment: the same JDKs, kernel, CPU, drivers, versions and settings.")
        else {
            appendLine("Environment differences (figures may differ for these reasons alone):")
            c.differences.forEach { appendLine("  ${it.what}: ${it.a}  →  ${it.b}") }
        }
        appendLine()
        if (c.changes.isEmpty()) appendLine("No configuration appears in both runs: nothing to compare.")
        for (ch in c.changes) {
            appendLine("${ch.configKey}  (${ch.measuredA} → ${ch.measuredB} measured repetitions)")
            line(CompareWords.Figure.THROUGHPUT, ch.throughput)
            line(CompareWords.Figure.P99, ch.p99)
            if (ch.latencyA != null && ch.latencyB != null && ch.latencyA != ch.latencyB) {
                appendLine("  note: p99 is ${ch.latencyA}-model latency in A and ${ch.latencyB}-model in B: not like with like")
            }
        }
        if (c.onlyA.isNotEmpty()) appendLine("\nOnly in A: ${c.onlyA.joinToString()}")
        if (c.onlyB.isNotEmpty()) appendLine("${if (c.onlyA.isEmpty()) "\n" else ""}Only in B: ${c.onlyB.joinToString()}")
    }

    private fun StringBuilder.line(f: CompareWords.Figure, change: Change?) {
        val label = "%-6s".format(f.title)
        if (change == null) { appendLine("  $label no measured repetition on one side"); return }
        appendLine("  $label ${CompareWords.estimate(f, change.before)}  →  ${CompareWords.estimate(f, change.after)} ${f.unit}")
        appendLine("         ${CompareWords.change(change)}: ${CompareWords.verdict(f, change)}")
    }
}
