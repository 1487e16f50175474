package stackbench.runner.findings

import stackbench.runner.decide.Figure
import stackbench.runner.report.MarkdownSummary.md
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.RunResult
import stackbench.runner.stats.Statistics
import java.util.Locale

/**
 * One side of a row as measured: the matching cells (every repetition) and the figure over the ones a verdict
 * counts ([Verdicts]): those without a disqualifying flag. [flagged] were left out for one; when every finished
 * repetition carries one ([allFlagged]) the figure is over them all, to be shown marked, and no verdict reads it.
 */
data class Measured(val selector: Selector, val cells: List<CellResult>, val values: List<Double>, val flagged: Int = 0) {
    val failed: Int get() = cells.count { it.status != CellStatus.OK }
    val allFlagged: Boolean get() = flagged > 0 && flagged == cells.size - failed
    val median: Double? get() = values.takeIf { it.isNotEmpty() }?.let { Statistics.median(it) }
    val mean: Double? get() = values.takeIf { it.isNotEmpty() }?.average()
    val sd: Double? get() = values.takeIf { it.size > 1 }?.let { xs -> val m = xs.average(); kotlin.math.sqrt(xs.sumOf { (it - m) * (it - m) } / (xs.size - 1)) }
    fun central(summary: Summary): Double? = if (summary == Summary.MEAN) mean else median
}

/**
 * The tables of docs/findings.md, computed from runs' results alone: for each row, what the article
 * published and what the lab measured, side by side, and the ratios. Nothing here is typed in by hand
 * but the published figures in docs/claims.yaml.
 */
class ClaimTables(private val runs: Map<String, RunResult>, claims: Claims? = null) {
    /** The rows' verdicts, those of a claim as its family settled them ([Verdicts]). */
    private val verdicts = Verdicts(runs, claims)

    /**
     * [selector]'s cells and [figure] over the repetitions that [judged]'s verdict counts (the flags its figure's
     * waiver leaves disqualifying take a cell out), so a table's medians and ratios are the ones its verdicts read.
     */
    fun measure(selector: Selector, figure: Figure, judged: Figure = figure): Measured {
        val cells = runs[selector.run]?.cells.orEmpty().filter { selector.matches(it) }
        val finished = cells.filter { it.status == CellStatus.OK }
        val counted = finished.filter { Verdicts.unflagged(it, judged) }
        val values = counted.ifEmpty { finished }.mapNotNull(figure.value).filter { !it.isNaN() }
        return Measured(selector, cells, values, flagged = finished.size - counted.size)
    }

    /** Rows whose cells are missing from the runs: the selector, to name in an error. */
    fun unmatched(c: Comparison): List<Selector> =
        c.rows.flatMap { listOfNotNull(it.a, it.b) }.filter { s -> runs[s.run]?.cells.orEmpty().none { s.matches(it) } }

    fun render(c: Comparison): String {
        val paired = c.rows.any { it.b != null }
        val rowVerdicts = verdicts.rows(c)
        val judged = rowVerdicts.any { it.claimed != null }
        val header = mutableListOf(c.rowHeader)
        if (paired) header += listOf("published ${c.aName}", "published ${c.bName}", "published ratio", c.aName, c.bName!!, "measured ratio")
        else header += listOf("published", "measured", "measured ÷ published")
        if (judged) header += listOf(VerdictText.claimHeader(c), "verdict")
        c.show.forEach { header += if (paired) "${it.header} (${c.aName} / ${c.bName})" else it.header }

        val sides = c.rows.map { r -> measure(r.a, c.figure) to r.b?.let { measure(it, c.figure) } }
        val measured = sides.flatMap { (a, b) -> listOfNotNull(a, b) }
        val lines = c.rows.mapIndexed { i, row ->
            val (a, b) = sides[i]
            val cells = mutableListOf(md(row.label))
            if (paired) {
                cells += listOf(c.figure.format(row.publishedA).orDash(row.publishedA), c.figure.format(row.publishedB).orDash(row.publishedB), ratio(row.published))
                // the ratio the verdict reads (geometric means over process means) where it has one, so that the table and the
                // verdict give the same figure; else the sides' medians (or means) divided
                cells += listOf(side(a, c), side(b!!, c), ratio(rowVerdicts[i].decision?.ratio ?: quotient(a.central(c.summary), b.central(c.summary))))
            } else {
                cells += listOf(c.figure.format(row.publishedA).orDash(row.publishedA), side(a, c), ratio(quotient(a.central(c.summary), row.publishedA)))
            }
            if (judged) cells += listOf(VerdictText.claimCell(rowVerdicts[i]), VerdictText.safe(VerdictText.verdictCell(rowVerdicts[i])))
            c.show.forEach { f ->
                val sa = f.format(measure(a.selector, f, c.figure).median)
                cells += if (b != null) "$sa / ${f.format(measure(b.selector, f, c.figure).median)}" else sa
            }
            cells
        }
        val reps = measured.map { it.cells.size }.filter { it > 0 }
        val oneRun = (reps.maxOrNull() ?: 0) <= 1
        val caption = "${c.figure.header}; measured: " + when (c.summary) {
            Summary.MEAN -> "mean ± standard deviation"
            Summary.MEDIAN -> if (oneRun) "one run" else "median" + if ((reps.maxOrNull() ?: 0) >= Statistics.MIN_FOR_INTERVAL) " [range]" else ""
        } + (if (oneRun && c.summary == Summary.MEDIAN) "" else " over ${repetitions(reps)}") + flagging(measured, oneRun) +
            (if (paired) "; measured ratio: " + (if (c.paired) "the geometric mean of the rounds' ratios (process k of each side, paired)" else "of geometric means over process means") + ", as the verdict reads it" else "") +
            (if (judged) "; verdicts: the interval of that ratio (${if (c.paired) "one-sample t over the rounds' log ratios" else "Welch"}, 95 % at one look${if (rowVerdicts.any { it.family > 1 }) "; a claim's rows at 95 % ÷ its rows not yet settled, Holm's step-down" else ""}) against the claim" else "") + "; runs: ${c.rows.flatMap { listOfNotNull(it.a.run, it.b?.run) }.distinct().joinToString { "docs/runs/" + md(it) }}"
        return buildString {
            appendLine("*$caption*")
            appendLine()
            appendLine("| " + header.joinToString(" | ") { md(it) } + " |")
            appendLine("|" + header.indices.joinToString("|") { if (it == 0) "---" else "--:" } + "|")
            lines.forEach { appendLine("| " + it.joinToString(" | ") + " |") }
        }.trimEnd()
    }

    /** What the caption says of flagged repetitions: left out where others remain, shown marked where none does. */
    private fun flagging(measured: List<Measured>, oneRun: Boolean): String =
        (if (measured.any { it.flagged > 0 && !it.allFlagged }) "; a flagged repetition is left out, as the verdicts leave it" else "") +
            when {
                measured.none { it.allFlagged } -> ""
                oneRun -> "; a flagged window is shown, marked"
                else -> "; a side whose every repetition is flagged is shown over them all, marked"
            }

    private fun side(m: Measured, c: Comparison): String {
        if (m.cells.isEmpty()) return "not run"
        val v = m.central(c.summary) ?: return if (m.failed > 0) "failed" else "–"
        val body = when (c.summary) {
            Summary.MEAN -> c.figure.format(v) + (m.sd?.let { " ± " + c.figure.format(it) } ?: "")
            Summary.MEDIAN -> {
                c.figure.format(v) + (if (m.values.size >= Statistics.MIN_FOR_INTERVAL) " [${c.figure.format(m.values.min())}–${c.figure.format(m.values.max())}]" else "")
            }
        }
        val notes = listOfNotNull(
            if (m.failed > 0) "${m.failed} of ${m.cells.size} failed" else null,
            when {
                m.allFlagged -> if (m.flagged == 1) "flagged" else "all ${m.flagged} flagged"
                m.flagged > 0 -> "${m.flagged} of ${m.cells.size - m.failed} flagged, left out"
                else -> null
            })
        return body + if (notes.isEmpty()) "" else " (" + notes.joinToString("; ") + ")"
    }

    private fun repetitions(counts: List<Int>): String = when {
        counts.isEmpty() -> "no cells"
        counts.min() == counts.max() -> if (counts.min() == 1) "1 repetition" else "${counts.min()} repetitions"
        else -> "${counts.min()}-${counts.max()} repetitions"
    }

    private fun String.orDash(v: Double?) = if (v == null) "–" else this

    companion object {
        fun quotient(a: Double?, b: Double?): Double? = if (a == null || b == null || b == 0.0) null else a / b
        fun ratio(r: Double?): String = if (r == null) "–" else String.format(Locale.ROOT, if (r >= 10) "%.0f×" else "%.2f×", r)
    }
}
