package stackbench.runner.history

import stackbench.runner.report.Axis
import stackbench.runner.report.ChartSpec
import stackbench.runner.results.Format
import stackbench.runner.report.Html
import stackbench.runner.report.Mark
import stackbench.runner.report.Palette
import stackbench.runner.report.Point
import stackbench.runner.report.Series

/**
 * history.html: a suite's history as one self-contained page: per configuration, throughput and p99 over the runs
 * with their intervals and the change points marked, drawn by the report's own renderer (report.js, ECharts inlined);
 * the runs and what changed between them as tables. Every string from the history is escaped. Pure.
 */
object HistoryHtml {
    private fun e(s: String?) = Html.text(s)

    fun render(view: HistoryView): String {
        val specs = mutableListOf<ChartSpec>()
        val categories = view.runs.map { label(it) }
        val sections = view.series.mapIndexed { i, s ->
            if (s.points.all { (_, c) -> c.throughput == null && c.p99 == null }) {
                return@mapIndexed "<section><h2>${e(s.configKey)}</h2><p class=\"meta\">${e(s.app)} · ${e(s.endpoint)} · ${e(s.load)}</p>" +
                    "<p class=\"caution\">No run counted a window of it: every one failed or carried a disqualifying flag (each run's report says which).</p></section>"
            }
            val charts = listOf(
                chart("h-$i-t", "Throughput", "req/s", s, categories, view, HistoryViews.THROUGHPUT, { it.throughput }, { it.throughputLow }, { it.throughputHigh }),
                chart("h-$i-p", "p99", "ms", s, categories, view, HistoryViews.P99, { it.p99 }, { it.p99Low }, { it.p99High }),
            )
            specs += charts
            val figures = charts.joinToString("") { c ->
                """<figure><figcaption>${e(c.title)}<small>${e(c.note)}</small></figcaption><div class="chart" id="${c.id}" role="img" aria-label="${e(c.title)}"></div></figure>"""
            }
            val changes = if (s.changes.isEmpty()) "<p class=\"caution\">No change point in ${s.points.size} run(s)${if (s.points.size < 2 * HistoryViews.MIN_SEGMENT) " (one needs ${2 * HistoryViews.MIN_SEGMENT} runs or more)" else ""}.</p>"
            else "<ul>" + s.changes.joinToString("") { "<li><span class=\"flag bad\">change point</span> ${e(HistoryText.changeText(it))}</li>" } + "</ul>"
            "<section><h2>${e(s.configKey)}</h2><p class=\"meta\">${e(s.app)} · ${e(s.endpoint)} · ${e(s.load)}</p><div class=\"charts wide\">$figures</div>$changes</section>"
        }
        val runs = "<div class=\"scroll\"><table><thead><tr><th>run</th><th>started</th><th>suite</th><th>commit</th><th>app JDK</th><th>Spring Boot</th><th>kernel</th><th>status</th></tr></thead><tbody>" +
            view.runs.joinToString("") { r ->
                "<tr><td>${e(r.id)}</td><td>${e(HistoryViews.time(r))}</td><td>${e(r.suite)}</td><td><code>${e(HistoryViews.commit(r) ?: "–")}</code></td><td>${e(HistoryViews.jdk(r.appJdk) ?: "–")}</td>" +
                    "<td>${e(r.boot ?: "–")}</td><td>${e(r.kernel ?: "–")}</td><td>${e(r.status)}</td></tr>"
            } + "</tbody></table></div>"
        val environment = if (view.environment.isEmpty()) "<p>Nothing the results record of the machine and software changed between these runs.</p>"
        else "<div class=\"scroll\"><table><thead><tr><th>between</th><th>what</th><th>before</th><th>after</th></tr></thead><tbody>" +
            view.environment.joinToString("") { "<tr><td>${e(it.from)} → ${e(it.to)}</td><td>${e(it.what)}</td><td>${e(it.before)}</td><td>${e(it.after)}</td></tr>" } +
            "</tbody></table></div>"
        val title = view.suite ?: "every suite"
        return Html.chartedPage("$title · stackbench history", """<header class="top"><p class="kicker">stackbench history</p><h1>${e(title)}</h1>
<p class="meta">${view.runs.size} run(s), ${view.series.size} configuration(s). Each point: the median over the run's app processes; the dashed lines, its 95 % bootstrap interval (3 processes or more); a vertical line, a change point (PELT).</p></header>
${sections.joinToString("\n")}
<section><h2>Runs</h2>$runs</section>
<section><h2>What changed between runs</h2>$environment</section>""",
            "Rendered by stackbench from its run history; <code>./stackbench history --rebuild</code> makes the history again from the runs' results.json.",
            mapOf("charts" to specs, "provenance" to provenance(view)))
    }

    /**
     * Where a history chart's points come from, drawn inside each chart as the run report's are: the suite, how many
     * runs from which first and last day, their hosts and commits (`+`: a tree with uncommitted changes).
     */
    fun provenance(view: HistoryView): String {
        val days = view.runs.map { it.startedAt.take(10) }.sorted()
        val commits = view.runs.mapNotNull { r -> r.gitCommit?.let { it.take(10) + if (r.gitDirty == true) "+" else "" } }.distinct()
        return listOfNotNull(
            "stackbench history · ${view.suite ?: "every suite"}",
            "${view.runs.size} run(s)" + (if (days.isEmpty()) "" else " ${days.first()}" + if (days.last() != days.first()) " to ${days.last()}" else ""),
            view.runs.map { it.host }.distinct().joinToString(", ").ifEmpty { null },
            commits.takeIf { it.isNotEmpty() }?.let { if (it.size <= 3) "commit ${it.joinToString(", ")}" else "${it.size} commits" },
        ).joinToString(" · ")
    }

    /** A run on the chart's axis: its start, month to minute (`11-27 04:30`); the tooltip adds its id. */
    private fun label(r: RunRow) = HistoryViews.time(r).drop(5).take(11)

    private fun chart(
        id: String, title: String, unit: String, s: CellSeries, categories: List<String>, view: HistoryView, figure: String,
        value: (CellRow) -> Double?, low: (CellRow) -> Double?, high: (CellRow) -> Double?,
    ): ChartSpec {
        val index = view.runs.withIndex().associate { it.value.id to it.index.toDouble() }
        fun points(f: (CellRow) -> Double?) = s.points.map { (run, row) -> Point(index.getValue(run.id), f(row), run.id) }
        val color = Palette.colors.first()
        val series = listOf(
            Series("median", "line", color, "circle", data = points(value)),
            Series("95 % interval", "line", color, "none", dash = "dashed", data = points(low), faint = true, detail = "low"),
            Series("95 % interval", "line", color, "none", dash = "dashed", data = points(high), faint = true, detail = "high"),
        )
        val marks = s.changes.filter { it.figure == figure }.map { c -> Mark(index.getValue(c.runId), "change ${String.format(java.util.Locale.ROOT, "%+.0f", c.relative * 100)} %") }
        val format: (Double?) -> String = if (figure == HistoryViews.THROUGHPUT) Format::rate else Format::ms
        val last = s.points.lastOrNull()?.second?.let(value)
        return ChartSpec(id, title, "$unit · latest ${format(last)}", Axis("run", "category", categories), Axis(unit), series, xMarks = marks)
    }
}
