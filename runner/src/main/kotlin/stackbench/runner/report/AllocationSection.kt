package stackbench.runner.report

import stackbench.runner.results.CellResult
import stackbench.runner.results.RunResult
import java.util.Locale

/**
 * "Allocation and collections": each cell's heap bytes allocated per request, its allocation rate and its collectors'
 * time over the measured window (the `alloc` probe's record, probes/AllocationProbe), from results.json alone.
 */
internal object AllocationSection : ProbeSection {
    override val id = "allocation"
    override val title = "Allocation"
    override val order = 2
    private const val PROBE = "alloc"

    private fun measured(result: RunResult) = result.cells.filter { it.probes[PROBE]?.figures?.get("bytesPerRequest") != null }

    override fun any(result: RunResult): Boolean = measured(result).isNotEmpty()

    private fun figure(c: CellResult, name: String) = c.probes[PROBE]?.figures?.get(name)

    /** e.g. 12.3 KB: bytes in the nearest binary unit. */
    fun bytes(b: Double): String = when {
        b >= 1 shl 20 -> "%.1f MB".format(Locale.ROOT, b / (1 shl 20))
        b >= 1 shl 10 -> "%.1f KB".format(Locale.ROOT, b / (1 shl 10))
        else -> "%.0f B".format(Locale.ROOT, b)
    }

    private fun num(x: Double?, pattern: String) = x?.let { pattern.format(Locale.ROOT, it) } ?: "–"

    private data class Row(val key: String, val perRequest: String, val rate: String, val gcPerSecond: String, val gcPerRequest: String)

    private fun rows(result: RunResult) = measured(result).map { c ->
        Row(c.key, bytes(figure(c, "bytesPerRequest")!!), num(figure(c, "mbPerSecond"), "%.1f"), num(figure(c, "gcMsPerSecond"), "%.1f"),
            num(figure(c, "gcMsPerRequest"), "%.4f"))
    }

    override fun html(result: RunResult, e: (String?) -> String): String {
        if (!any(result)) return ""
        val body = rows(result).joinToString("") { r ->
            "<tr><td>${e(r.key)}</td><td class=\"num\">${r.perRequest}</td><td class=\"num\">${r.rate}</td><td class=\"num\">${r.gcPerSecond}</td><td class=\"num\">${r.gcPerRequest}</td></tr>"
        }
        return "<section id=\"$id\"><h2>Allocation and collections</h2><p class=\"caution\">Over each measured window, from the app's " +
            "own counters: heap bytes allocated by every thread per completed request (as JMH's gc.alloc.rate.norm: the server's " +
            "own work included), the allocation rate, and the collectors' time.</p><table><thead><tr><th>cell</th><th>allocated per request</th>" +
            "<th>MB/s</th><th>GC ms/s</th><th>GC ms per request</th></tr></thead><tbody>$body</tbody></table></section>"
    }

    override fun markdown(result: RunResult, md: (String?) -> String): String = buildString {
        if (!any(result)) return ""
        appendLine()
        appendLine("**Allocation and collections** (over each window, from the app's own counters)")
        appendLine()
        appendLine("| cell | allocated per request | MB/s | GC ms/s | GC ms per request |")
        appendLine("|---|--:|--:|--:|--:|")
        rows(result).forEach { appendLine("| ${md(it.key)} | ${it.perRequest} | ${it.rate} | ${it.gcPerSecond} | ${it.gcPerRequest} |") }
    }
}
