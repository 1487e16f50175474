package stackbench.runner.report

import stackbench.runner.results.CellResult
import stackbench.runner.results.Format
import stackbench.runner.results.NamedLoad

/**
 * A cell of several named requests ([stackbench.runner.results.LoadResult.requests]: a mix, a scenario's steps) in
 * the report: a table of its requests (throughput, p50, p99, errors) and their latency spectra, one line a request;
 * and for a scenario, how its warm-up ended and how steady its measured window was. Pure: HTML and chart specs.
 */
object RequestsView {
    /** [cell]'s named requests, or empty for a cell of one request (or without a window). */
    fun requests(cell: CellResult): List<NamedLoad> = cell.window.measured?.requests.orEmpty()

    /** The table of [cell]'s named requests; "" for a cell without. */
    fun table(cell: CellResult, e: (String?) -> String): String {
        val requests = requests(cell).takeIf { it.isNotEmpty() } ?: return ""
        val head = "<tr><th>request</th><th>sent</th><th class=\"n\">req/s</th><th class=\"n\">p50 ms</th><th class=\"n\">p99 ms</th><th class=\"n\">errors</th></tr>"
        val rows = requests.joinToString("") { r ->
            "<tr><td>${e(r.name)}</td><td><code>${e(r.request)}</code></td><td class=\"n\">${Format.rate(r.throughput)}</td>" +
                "<td class=\"n\">${Format.ms(r.latency.p50)}</td><td class=\"n\">${Format.ms(r.latency.p99)}</td>" +
                "<td class=\"n\">${Format.count(r.errorCount)}<small>${Format.percent(r.errorRate, 2)}</small></td></tr>"
        }
        return "<div class=\"scroll\"><table class=\"requests\"><thead>$head</thead><tbody>$rows</tbody></table></div>"
    }

    /** The latency spectrum of each of [cell]'s named requests, one line each, on the report's percentile axis; null without. */
    fun spectrum(cell: CellResult, id: String): ChartSpec? {
        val series = requests(cell).mapIndexedNotNull { i, r ->
            val data = r.spectrum.filter { it.percentile >= 50.0 && it.percentile <= Percentiles.MAX }
                .map { Point(Percentiles.x(it.percentile), it.ms.takeIf { v -> v > 0 }, "p" + Format.plain(it.percentile)) }
                .takeIf { p -> p.any { it.y != null } } ?: return@mapIndexedNotNull null
            val style = Palette.style(i)
            Series(r.name, "line", style.color, style.symbol, data = data, detail = r.request)
        }
        if (series.isEmpty()) return null
        return ChartSpec(id, "Latency by percentile, request by request", cell.key, Axis("percentile", "percentile"),
            Axes.y("latency, ms", series, log = true), series)
    }

    /**
     * How a scenario's warm-up ended and how steady its measured window was, in words; null for a cell of another load
     * or a scenario measured cold (no warm-up).
     */
    fun steadiness(cell: CellResult): String? {
        if (cell.load.model != "scenario") return null
        val warm = cell.warmup.record
        val shape = cell.window.shape
        val warmText = warm?.let { w ->
            "warm-up ${Format.seconds(w.seconds * 1000)}, ended ${w.endedBy}" +
                (w.steadyAfterSeconds?.let { " (steady after ${Format.seconds(it * 1000)})" } ?: "")
        } ?: "no warm-up: the scenario was measured from a cold app"
        val windowText = shape?.let { s -> "measured window ${s.shape}" + (s.steadyFromSecond?.let { " from second $it" } ?: "") + ": ${s.reason}" }
            ?: "the measured window's steadiness was not read"
        return "$warmText; $windowText"
    }
}
