package stackbench.runner.cli

import stackbench.runner.results.CellStatus
import stackbench.runner.results.RunResult

/** The terminal summary at the end of a run: one row per cell, the key figures and the flags beside them. */
object SummaryTable {
    fun render(result: RunResult): String {
        val header = listOf("#", "app", "endpoint", "load", "req/s", "p50 ms", "p99 ms", "errors", "app CPU", "flags")
        val rows = result.cells.map { c ->
            val m = c.measured
            val ok = c.status == CellStatus.OK
            listOf(
                c.index.toString(),
                c.app.name,
                c.endpoint.label,
                c.load.label,
                if (ok && m != null) "%,.1f".format(m.throughput) else c.status.name.lowercase(),
                if (ok) ms(m?.latency?.p50) else "",
                if (ok) ms(m?.latency?.p99) else "",
                if (ok && m != null) "%.2f%%".format(m.errorRate * 100) else "",
                c.resources?.cpuShare?.let { "%.0f%%".format(it * 100) } ?: "",
                if (ok) c.flags.joinToString(" ") { it.code } else (c.reason ?: "").take(60),
            )
        }
        return table(header, rows, rightAligned = setOf(0, 4, 5, 6, 7, 8))
    }

    private fun ms(v: Double?) = when {
        v == null -> "-"
        v >= 100 -> "%,.0f".format(v)
        else -> "%.2f".format(v)
    }

    fun table(header: List<String>, rows: List<List<String>>, rightAligned: Set<Int> = emptySet()): String {
        val widths = header.indices.map { i -> (rows.map { it[i].length } + header[i].length).max() }
        fun line(cells: List<String>) = cells.mapIndexed { i, s -> if (i in rightAligned) s.padStart(widths[i]) else s.padEnd(widths[i]) }
            .joinToString("  ").trimEnd()
        return (listOf(line(header), widths.joinToString("  ") { "-".repeat(it) }) + rows.map(::line)).joinToString("\n")
    }
}
