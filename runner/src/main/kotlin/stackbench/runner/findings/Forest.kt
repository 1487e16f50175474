package stackbench.runner.findings

import stackbench.runner.report.ChartSpec
import stackbench.runner.report.ForestSpec
import stackbench.runner.report.Html
import stackbench.runner.stats.ClaimVerdict
import java.util.Locale

/**
 * The forest plot of docs/findings.md, as data: one line per claimed row that has a measured ratio, the article's
 * ratio beside the lab's with its interval and the claim's band. A row without b compares the lab's figure with the
 * published one, so its published ratio is 1 and its measured ratio is measured ÷ published. Pure: [chart] is it as
 * the report draws every comparison (report/ForestSpec), [page] the page `findings` turns into the document's picture,
 * and the document's `<!-- forest -->` block lists it in words, so `findings --check` checks it.
 */
object Forest {
    data class Line(
        val claim: String,
        val article: String,
        val label: String,
        /** The article's ratio a ÷ b; null where it gave only the relation. */
        val published: Double?,
        val measured: Double,
        val low: Double?,
        val high: Double?,
        /** The band's half-width: "the same" means within 1 ± [threshold]. */
        val threshold: Double,
        val verdict: ClaimVerdict,
        /** The article's size the row claims beside the band ([Size.text]), or null. */
        val size: String? = null,
    )

    fun lines(results: List<ClaimResult>): List<Line> = results.flatMap { r ->
        r.rows.mapNotNull { v ->
            val d = v.decision ?: return@mapNotNull null
            val ratio = d.ratio ?: return@mapNotNull null
            val published = if (v.row.b == null) 1.0 else v.row.published
            // a claim tested by several tables names the table too: the same row label recurs in each
            val where = if (v.comparison.id == r.claim.id) r.claim.id else "${r.claim.id} (${v.comparison.id})"
            Line(r.claim.id, r.claim.article, "$where: ${v.row.name}", published, ratio, d.low, d.high, v.comparison.threshold, v.verdict!!, v.row.size?.text)
        }
    }

    /** Each verdict's legend entry and colour: holds green, differs red, cannot tell grey. */
    val VERDICTS: Map<ClaimVerdict, ForestSpec.Verdict> = linkedMapOf(
        ClaimVerdict.HOLDS to ForestSpec.Verdict("holds", "#2e7d32"),
        ClaimVerdict.DIFFERS to ForestSpec.Verdict("differs", "#c62828"),
        ClaimVerdict.CANNOT_TELL to ForestSpec.Verdict("cannot tell", "#757575"),
    )

    /** The lines as the forest chart every view draws: the lab's ratio with its interval on the claim's band, the article's a ring. */
    fun chart(lines: List<Line>): ChartSpec? = ForestSpec.of(
        "forest", "Every claimed row: the lab's ratio a ÷ b against the article's",
        "the lab's ratio with its interval, coloured by the verdict; the article's a ring; the claim's band of \"the same\" shaded; logarithmic",
        lines.map { l ->
            ForestSpec.Row(l.label, l.measured, l.low, l.high, l.threshold, VERDICTS.getValue(l.verdict).name, l.published,
                "${l.label}: ${f(l.measured)}" + (if (l.low != null && l.high != null) " [${f(l.low)}–${f(l.high)}]" else "") +
                    (l.published?.let { ", the article ${f(it)}" } ?: "") + ", ${l.verdict.text}")
        },
        VERDICTS.values.toList(), referenceName = "the article", rowPx = 24, labelWidth = 440,
    )

    /** The page `findings` draws the document's picture from: the chart alone, with [provenance] drawn inside it. */
    fun page(lines: List<Line>, provenance: String): String? = chart(lines)?.let { spec ->
        Html.chartedPage("docs/findings.md · forest plot", Html.figure(spec), "Drawn by <code>./stackbench findings</code> from docs/runs.",
            mapOf("charts" to listOf(spec), "provenance" to provenance))
    }

    /** The block that stands beside the image in the document: the image, and every line in words. */
    fun block(lines: List<Line>, image: String): String = buildString {
        appendLine("![Every claimed row: the article's ratio (hollow) beside the lab's with its interval, on the claim's band]($image)")
        appendLine()
        appendLine("<details><summary>The ${lines.size} rows of the plot</summary>")
        appendLine()
        appendLine("| row | published | measured [interval] | band | verdict |")
        appendLine("|---|---|---|---|---|")
        for (l in lines) {
            val interval = if (l.low != null && l.high != null) " [${f(l.low)}–${f(l.high)}]" else ""
            appendLine("| ${VerdictText.safe(l.label)} | ${l.published?.let { f(it) } ?: "–"} | ${f(l.measured)}$interval | " +
                "${f(1 - l.threshold)}–${f(1 + l.threshold)}${l.size?.let { ", $it" } ?: ""} | ${l.verdict.text} |")
        }
        appendLine()
        append("</details>")
    }

    private fun f(x: Double) = when {
        x < 0.01 -> "<0.01×"
        x > 100 -> ">100×"
        x >= 10 -> "%.0f×".format(Locale.ROOT, x)
        else -> "%.2f×".format(Locale.ROOT, x)
    }
}
