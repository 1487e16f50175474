package stackbench.runner.report

/**
 * A chart as data: what report.js draws with ECharts. Kept free of the library's own option names so that
 * the choice of figures (and their escaping) is tested here, and the script only maps shapes to options.
 */
data class ChartSpec(
    val id: String,
    val title: String,
    /** A line under the title, e.g. which latency the figure is. */
    val note: String? = null,
    val x: Axis,
    val y: Axis,
    val series: List<Series>,
    /** Horizontal reference lines, e.g. a latency target. */
    val marks: List<Mark> = emptyList(),
    /** axis: one tooltip for every line at an x; item: one point. */
    val tooltip: String = "axis",
    /** Vertical reference lines at an x, e.g. where a phase began or the steady state was placed. */
    val xMarks: List<Mark> = emptyList(),
    /** A second y axis, on the right, for series with [Series.rightAxis]. */
    val y2: Axis? = null,
    /** The chart's height in pixels; null: the page's default for its place. */
    val height: Int? = null,
    /** A forest plot ([ForestSpec]): rows of labelled comparisons, their labels given room, the ratio axis fitted to the rows. */
    val forest: Boolean = false,
    /** A forest's room for its row labels, in pixels (null: the script's default). */
    val labelWidth: Int? = null,
)

/** type: value, log, category, or percentile (a log axis of 1/(1-p), as HdrHistogram plots percentiles). */
data class Axis(val name: String, val type: String = "value", val categories: List<String>? = null)

data class Series(
    val name: String,
    /** line, scatter, bar, or interval (a dot at x with a bar from [Point.low] to [Point.high] and a band of ±[Point.band] around 1). */
    val type: String,
    val color: String,
    val symbol: String,
    val dash: String = "solid",
    val data: List<Point>,
    /** Drawn lighter and left out of the legend (e.g. single repetitions behind their median). */
    val faint: Boolean = false,
    /** Shown after the name in tooltips, e.g. which repetition; series of one name share a legend entry. */
    val detail: String? = null,
    /** Drawn against the chart's second y axis ([ChartSpec.y2]). */
    val rightAxis: Boolean = false,
)

/** x is a category's index on a category axis; a null y is a gap. [low], [high] and [band]: an interval series' bar and band. */
data class Point(val x: Double, val y: Double?, val note: String? = null, val low: Double? = null, val high: Double? = null, val band: Double? = null)

data class Mark(val value: Double, val label: String)

object Axes {
    /** A log axis when [log] is asked for and the values span a decade or more; otherwise linear from zero. */
    fun y(name: String, series: List<Series>, log: Boolean): Axis {
        val ys = series.flatMap { s -> s.data.mapNotNull { it.y } }.filter { it > 0 }
        val wide = ys.isNotEmpty() && ys.max() / ys.min() >= 10
        return Axis(name, if (log && wide) "log" else "value")
    }
}

object Percentiles {
    /** The x of percentile [p] on a percentile axis: p50 → 2, p90 → 10, p99 → 100, p99.9 → 1000. */
    fun x(p: Double): Double = 1.0 / (1.0 - p / 100.0)

    const val MAX = 99.99
}
