package stackbench.runner.gate

import stackbench.runner.report.Decided
import stackbench.runner.results.Format

/** The gate's outcome as Markdown, fit for a CI job summary (GitHub's GITHUB_STEP_SUMMARY, a merge request note). Pure. */
object GateMarkdown {
    fun render(g: GateResult): String = buildString {
        val head = when (g.outcome) {
            GateOutcome.PASSED -> "✅ passed"
            GateOutcome.SLOWER -> "❌ slower"
            GateOutcome.UNDECIDED -> "❌ undecided"
            GateOutcome.CANNOT_COMPARE -> "⚠️ cannot compare"
        }
        appendLine("## stackbench gate: $head")
        appendLine()
        appendLine(cell(g.reason))
        appendLine()
        appendLine("Suite `${code(g.current.run.suite)}`: current run `${code(g.current.run.id)}` against baseline `${code(g.baseline.run.id)}`, " +
            "threshold ±${Gate.pct(g.threshold)}. Each ratio is current ÷ baseline with its interval; a configuration is slower when its throughput " +
            "is decided lower, or its p99 higher, beyond the threshold (the process as the unit, Welch's interval and the exact rank test).")
        if (g.cells.isNotEmpty()) {
            appendLine()
            appendLine("| configuration | verdict | baseline req/s | current req/s | throughput ratio | p99 ratio | independent JVMs |")
            appendLine("|---|---|---:|---:|---|---|---|")
            for (c in g.cells) {
                val mark = when (c.verdict) { GateVerdict.SLOWER -> "❌"; GateVerdict.FASTER -> "⬆️"; GateVerdict.SAME -> "✅"; GateVerdict.UNDECIDED -> "❔" }
                appendLine("| `${code(c.configKey)}` | $mark ${c.verdict.text} | ${figure(g, c.configKey, baseline = true)} | ${figure(g, c.configKey, baseline = false)} | " +
                    "${Gate.ratio(c.throughput)} | ${Gate.ratio(c.p99)} | ${Decided.basis(c.throughput)} |")
            }
            val courses = g.cells.filter { it.warmupBaseline != null || it.warmupCurrent != null }
            if (courses.isNotEmpty()) {
                appendLine()
                appendLine("How each app process's throughput went over its warm-up (baseline → current):")
                appendLine()
                courses.forEach { appendLine("- `${code(it.configKey)}`: ${cell(it.warmupBaseline ?: "not classed")} → ${cell(it.warmupCurrent ?: "not classed")}") }
            }
            val notes = g.cells.filter { it.verdict == GateVerdict.SLOWER || it.verdict == GateVerdict.UNDECIDED }
            if (notes.isNotEmpty()) {
                appendLine()
                appendLine("<details><summary>Why</summary>")
                appendLine()
                notes.forEach { appendLine("- `${code(it.configKey)}`: ${cell(it.why)}") }
                appendLine()
                appendLine("</details>")
            }
        }
        if (g.onlyBaseline.isNotEmpty() || g.onlyCurrent.isNotEmpty()) {
            appendLine()
            if (g.onlyBaseline.isNotEmpty()) appendLine("Only in the baseline: ${g.onlyBaseline.joinToString { "`${code(it)}`" }}  ")
            if (g.onlyCurrent.isNotEmpty()) appendLine("Only in the current run: ${g.onlyCurrent.joinToString { "`${code(it)}`" }}")
        }
        if (g.differences.isNotEmpty()) {
            appendLine()
            appendLine("What differs between the runs (figures may differ for these reasons alone):")
            appendLine()
            appendLine("| what | baseline | current |")
            appendLine("|---|---|---|")
            g.differences.forEach { appendLine("| ${cell(it.what)} | ${cell(it.a)} | ${cell(it.b)} |") }
        }
    }

    /** The median throughput of a side's measured windows, for the table (the decision itself is in the ratio). */
    private fun figure(g: GateResult, key: String, baseline: Boolean): String {
        val run = if (baseline) g.baseline else g.current
        val values = run.cells.filter { it.configKey == key }.mapNotNull { it.window.measured?.throughput }.filter { !it.isNaN() }
        return if (values.isEmpty()) "–" else Format.rate(stackbench.runner.stats.Statistics.median(values))
    }

    /** Text in a table cell: no line breaks, no column bars. */
    private fun cell(s: String) = s.replace("|", "\\|").replace(Regex("\\s*\\n\\s*"), " ")

    private fun code(s: String) = s.replace("`", "'")
}
