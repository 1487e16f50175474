package stackbench.runner.report

import stackbench.runner.results.DecisionRecord
import stackbench.runner.stats.Relation

/**
 * Comparisons as one picture (a forest plot): a row per comparison, top to bottom in the order given, its ratio a ÷ b
 * a dot on a logarithmic axis with its interval as a bar, the band it was judged against ("the same" within ±t)
 * shaded behind it, and the verdict as the colour. The report, `compare` and the findings draw it from here, in the
 * page with the one chart library (report.js, series type `interval`); the findings' static picture is this page's.
 */
object ForestSpec {
    /**
     * One row: [label] on the axis, [ratio] with its interval [low]-[high] (null: none), the band's half-width
     * [threshold], the [verdict] (a legend entry, one colour each), and a [reference] ratio drawn as a ring beside it
     * (the article's, for a claim).
     */
    data class Row(
        val label: String, val ratio: Double?, val low: Double?, val high: Double?, val threshold: Double,
        val verdict: String, val reference: Double? = null, val note: String? = null,
    )

    /** A verdict's legend entry and colour, in the legend's order. */
    data class Verdict(val name: String, val color: String)

    /** The engine's relations as the report and `compare` colour them: higher and lower apart, the same, undecided. */
    val RELATIONS: Map<Relation, Verdict> = linkedMapOf(
        Relation.HIGHER to Verdict("higher", "#1565c0"),
        Relation.LOWER to Verdict("lower", "#c62828"),
        Relation.SAME to Verdict("the same", "#2e7d32"),
        Relation.UNDECIDED to Verdict("cannot tell yet", "#757575"),
    )

    /** Pixels a row; the chart's height follows its rows, beside [FRAME_PX] for the legend, the axis and the provenance. */
    const val ROW_PX = 36
    const val FRAME_PX = 130

    /** A suite's decided comparisons as rows: their names, coloured by the engine's relation; null without a ratio to draw. */
    fun ofDecisions(id: String, title: String, decisions: List<DecisionRecord>): ChartSpec? =
        ofLabelled(id, title, "a ÷ b of ${figures(decisions)}", decisions.map { it.name to it })

    /**
     * Decisions under labels of the caller's ([compare]'s configurations, B ÷ A), coloured by the engine's relation:
     * the chart [of] draws, with [what] the ratio is in its note; null without a ratio to draw.
     */
    fun ofLabelled(id: String, title: String, what: String, decisions: List<Pair<String, DecisionRecord>>): ChartSpec? {
        val rows = decisions.map { (label, d) ->
            Row(label, d.decision.ratio, d.decision.low, d.decision.high, d.decision.threshold, RELATIONS.getValue(d.decision.relation).name,
                note = "${d.a} ÷ ${d.b}" + (if (d.figure == "throughput") "" else ", ${d.figure}") + ": ${Decided.ratio(d)}${Decided.interval(d)}, ${Decided.verdict(d)}")
        }
        return of(id, title, "$what, its interval as a bar, the band of \"the same\" shaded; logarithmic", rows, RELATIONS.values.toList())
    }

    /**
     * The chart of [rows] with [verdicts] as its legend (a verdict no row has is left out); a ring series named
     * [referenceName] where rows carry a reference; [rowPx] high a row, [labelWidth] for the labels. Null when no row has a ratio.
     */
    fun of(
        id: String, title: String, note: String?, rows: List<Row>, verdicts: List<Verdict>, referenceName: String? = null,
        rowPx: Int = ROW_PX, labelWidth: Int? = null,
    ): ChartSpec? {
        if (rows.none { it.ratio != null }) return null
        val labels = rows.map { it.label }
        // the first row on top: a category axis counts from the bottom
        fun y(i: Int) = (rows.size - 1 - i).toDouble()
        val series = verdicts.mapNotNull { v ->
            val points = rows.withIndex().filter { it.value.verdict == v.name && it.value.ratio != null }
                .map { (i, r) -> Point(r.ratio!!, y(i), r.note, low = r.low, high = r.high, band = r.threshold) }
            if (points.isEmpty()) null else Series(v.name, "interval", v.color, "circle", data = points)
        } + listOfNotNull(referenceName?.let { name ->
            rows.withIndex().filter { it.value.reference != null }.map { (i, r) -> Point(r.reference!!, y(i), "$name: %.2f×".format(java.util.Locale.ROOT, r.reference)) }
                .takeIf { it.isNotEmpty() }?.let { Series(name, "scatter", "#222222", "emptyCircle", data = it) }
        })
        return ChartSpec(id, title, note, Axis("a ÷ b", "log"), Axis("", "category", labels.reversed()), series,
            tooltip = "item", xMarks = listOf(Mark(1.0, "1×")), height = FRAME_PX + rowPx * rows.size, forest = true, labelWidth = labelWidth)
    }

    private fun figures(decisions: List<DecisionRecord>): String =
        decisions.map { it.figure }.distinct().joinToString(", ").ifEmpty { "throughput" }
}
