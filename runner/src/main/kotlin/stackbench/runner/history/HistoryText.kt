package stackbench.runner.history

import stackbench.runner.results.Format
import java.util.Locale

/** The history as text for a terminal: the runs, what changed between them, each configuration's figures over the runs and their change points. Pure. */
object HistoryText {
    fun render(view: HistoryView): String = buildString {
        val title = view.suite?.let { "suite $it" } ?: "every suite"
        appendLine("$title: ${view.runs.size} run(s)")
        if (view.runs.isEmpty()) {
            appendLine("(none indexed: a finished run is indexed when it ends; `stackbench history --rebuild` indexes the runs under results/)")
            return@buildString
        }
        appendLine()
        append(table(listOf("run", "started", "suite", "commit", "app JDK", "Boot", "status"), view.runs.map { r ->
            listOf(r.id, HistoryViews.time(r), r.suite, HistoryViews.commit(r) ?: "–", HistoryViews.jdk(r.appJdk) ?: "–", r.boot ?: "–", r.status)
        }))
        if (view.environment.isNotEmpty()) {
            appendLine()
            appendLine("changed between runs:")
            view.environment.groupBy { it.from to it.to }.forEach { (pair, changes) ->
                appendLine("  ${pair.first} → ${pair.second}: " + changes.joinToString("; ") { "${it.what} ${it.before} → ${it.after}" })
            }
        }
        for (s in view.series) {
            appendLine()
            appendLine("${s.configKey}  (${s.app} · ${s.endpoint} · ${s.load})")
            append(table(listOf("run", "req/s", "95 % interval", "p99 ms", "95 % interval", "processes"), s.points.map { (run, c) ->
                listOf(run.id, Format.rate(c.throughput), interval(c.throughputLow, c.throughputHigh, Format::rate), Format.ms(c.p99),
                    interval(c.p99Low, c.p99High, Format::ms), "${c.processes}")
            }).trimEnd().prependIndent("  ") + "\n")
            if (s.points.size < 2 * HistoryViews.MIN_SEGMENT) appendLine("  change points: none can be told from ${s.points.size} run(s) (needs ${2 * HistoryViews.MIN_SEGMENT})")
            else if (s.changes.isEmpty()) appendLine("  change points: none")
            else s.changes.forEach { appendLine("  change point: ${changeText(it)}") }
        }
    }

    fun changeText(c: ChangePoint): String {
        val format: (Double?) -> String = if (c.figure == HistoryViews.THROUGHPUT) Format::rate else Format::ms
        val unit = if (c.figure == HistoryViews.THROUGHPUT) "req/s" else "ms"
        return "${c.figure} from run ${c.runId}: ${format(c.before)} → ${format(c.after)} $unit (${String.format(Locale.ROOT, "%+.1f", c.relative * 100)} %)"
    }

    private fun interval(low: Double?, high: Double?, format: (Double?) -> String) =
        if (low == null || high == null) "–" else "${format(low)} – ${format(high)}"

    private fun table(header: List<String>, rows: List<List<String>>): String {
        val widths = header.indices.map { i -> (rows.map { it[i] } + header[i]).maxOf { it.length } }
        fun line(cells: List<String>) = cells.mapIndexed { i, s -> s.padEnd(widths[i]) }.joinToString("  ").trimEnd()
        return (listOf(line(header)) + rows.map(::line)).joinToString("\n", postfix = "\n")
    }
}
