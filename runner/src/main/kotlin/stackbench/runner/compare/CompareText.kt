package stackbench.runner.compare

import stackbench.runner.stats.Relation
import stackbench.runner.report.Decided
import stackbench.runner.results.Format
import stackbench.runner.results.DecisionRecord
import stackbench.runner.stats.Estimate

/** Words and figures shared by the terminal and HTML views of a comparison: the engine's decision in its own words ([Decided]). */
object CompareWords {
    enum class Figure(val title: String, val unit: String, val higherIsBetter: Boolean) { THROUGHPUT("req/s", "req/s", true), P99("p99", "ms", false) }

    fun value(f: Figure, v: Double?) = if (f == Figure.THROUGHPUT) Format.rate(v) else Format.ms(v)

    /** A side's counted windows: their median and range, and how many. */
    fun estimate(f: Figure, e: Estimate?): String = if (e == null) "no window counted" else value(f, e.median) +
        (if (e.n > 1) " (${value(f, e.min)}–${value(f, e.max)})" else "") + " n=${e.n}"

    /** B ÷ A with its interval and the verdict, as the report and the gate word it. */
    fun decision(d: DecisionRecord): String = "B ÷ A = ${Decided.ratio(d)}${Decided.interval(d)}: ${Decided.verdict(d)} (${Decided.basis(d)})"

    /** true: a decided improvement; false: a decided regression; null: none decided. */
    fun good(f: Figure, d: DecisionRecord): Boolean? = when (d.decision.relation) {
        Relation.HIGHER -> f.higherIsBetter
        Relation.LOWER -> !f.higherIsBetter
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
        else appendLine("Each configuration decided over its app processes (the process is the unit), against ±${Format.percent(c.threshold)}, as the gate decides it.")
        for (ch in c.changes) {
            appendLine("${ch.configKey}  (${ch.measuredA} → ${ch.measuredB} measured windows)")
            line(CompareWords.Figure.THROUGHPUT, ch.throughputA, ch.throughputB, ch.throughput)
            line(CompareWords.Figure.P99, ch.p99A, ch.p99B, ch.p99)
            if (ch.perCpuA != null || ch.perCpuB != null) appendLine("  cost   ${CompareWords.estimate(CompareWords.Figure.THROUGHPUT, ch.perCpuA)}  →  " +
                "${CompareWords.estimate(CompareWords.Figure.THROUGHPUT, ch.perCpuB)} requests per CPU-second of the app")
            if (ch.warmupA != null || ch.warmupB != null) appendLine("  warm-up ${ch.warmupA ?: "not classed"}  →  ${ch.warmupB ?: "not classed"}")
            ch.fallingA?.let { appendLine("  A: $it") }
            ch.fallingB?.let { appendLine("  B: $it") }
            ch.bindsA.forEach { appendLine("  A: a limit binds: $it") }
            ch.bindsB.forEach { appendLine("  B: a limit binds: $it") }
            if (ch.latencyA != null && ch.latencyB != null && ch.latencyA != ch.latencyB) {
                appendLine("  note: p99 is ${ch.latencyA}-model latency in A and ${ch.latencyB}-model in B: not like with like")
            }
        }
        if (c.onlyA.isNotEmpty()) appendLine("\nOnly in A: ${c.onlyA.joinToString()}")
        if (c.onlyB.isNotEmpty()) appendLine("${if (c.onlyA.isEmpty()) "\n" else ""}Only in B: ${c.onlyB.joinToString()}")
    }

    private fun StringBuilder.line(f: CompareWords.Figure, a: Estimate?, b: Estimate?, d: DecisionRecord) {
        val label = "%-6s".format(f.title)
        appendLine("  $label ${CompareWords.estimate(f, a)}  →  ${CompareWords.estimate(f, b)} ${f.unit}")
        appendLine("         ${CompareWords.decision(d)}")
    }
}
