package stackbench.runner.cli

import stackbench.runner.report.Decided
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Efficiency
import stackbench.runner.results.RunResult
import stackbench.runner.results.Settlings

/**
 * The terminal summary at the end of a run: one row per cell, the key figures, how the app's throughput went over its
 * warm-up ([Settlings]) and the flags beside them; under it, each configuration whose processes fall.
 */
object SummaryTable {
    fun render(result: RunResult): String {
        val header = listOf("#", "app", "endpoint", "load", "req/s", "p50 ms", "p99 ms", "errors", "app CPU", "req/CPU-s", "warm-up", "flags")
        val rows = result.cells.map { c ->
            val m = c.window.measured
            val ok = c.status == CellStatus.OK
            listOf(
                c.index.toString(),
                c.app.name,
                if (c.load.model == "scenario") "scenario" else c.endpoint.label,
                c.load.label,
                if (ok && m != null) "%,.1f".format(m.throughput) else c.status.name.lowercase(),
                if (ok) ms(m?.latency?.p50) else "",
                if (ok) ms(m?.latency?.p99) else "",
                if (ok && m != null) "%.2f%%".format(m.errorRate * 100) + (if (m.dropped > 0) " +${m.dropped} dropped" else "") else "",
                c.resources.summary?.cpuShare?.let { "%.0f%%".format(it * 100) } ?: "",
                if (ok) Efficiency.perCpuSecond(c)?.let { "%,.0f".format(it) } ?: "" else "",
                Settlings.of(c)?.label() ?: "",
                if (ok) c.flags.joinToString(" ") { it.code } else (c.reason ?: "").take(60),
            )
        }
        // a configuration whose processes fall says so: that is its finding, whatever its windows' flags leave of it
        val falling = result.cells.filter { it.status == CellStatus.OK }.groupBy { it.configKey }
            .mapNotNull { (config, cells) -> Settlings.fallingNote(cells)?.let { "  $config: $it" } }
        return table(header, rows, rightAligned = setOf(0, 4, 5, 6, 7, 8, 9)) + (if (falling.isEmpty()) "" else "\n" + falling.joinToString("\n"))
    }

    /** The suite's comparisons, decided: the ratio, its interval against the threshold, and the verdict. */
    fun decisions(result: RunResult): String {
        // the engine's words, as the report and summary.md write them (Decided)
        val header = listOf("comparison", "a ÷ b [interval]", "level", "independent JVMs", "decided")
        val rows = result.decisions.map { d ->
            listOf(
                d.name,
                Decided.ratio(d) + Decided.interval(d),
                d.decision.confidence?.takeIf { d.decision.low != null }?.let { "%.1f %%".format(java.util.Locale.ROOT, it * 100) } ?: "-",
                Decided.basis(d),
                if (d.decided) Decided.verdict(d) else "cannot tell yet",
            )
        }
        val decided = result.decisions.count { it.decided }
        val notes = result.decisions.filter { !it.decided || it.leftOut.isNotEmpty() || it.waived.isNotEmpty() }.map { d ->
            "  ${d.name}: ${d.decision.why}" + (if (d.leftOut.isEmpty()) "" else "; left out: ${d.leftOut.joinToString()}") +
                if (d.waived.isEmpty()) "" else "; counted although flagged: ${d.waived.joinToString()}"
        }
        return "comparisons: $decided of ${result.decisions.size} decided\n" + table(header, rows, rightAligned = setOf(2)) +
            (if (notes.isEmpty()) "" else "\n" + notes.joinToString("\n"))
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
