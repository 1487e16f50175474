package stackbench.runner.report

import stackbench.runner.results.CellResult
import stackbench.runner.results.ProfileComparisonRecord
import stackbench.runner.results.RunResult
import java.util.Locale

/**
 * "Where the time went": for each comparison whose sides were profiled, the frames whose self time changed most
 * (a against b) and the flame graphs of what grew and what shrank; for each profiled cell, its flame graph and its top
 * frames. From results.json alone (the `profile` probe's record and `profileComparisons`).
 */
internal object ProfilesSection : ProbeSection {
    override val id = "profiles"
    override val title = "Where the time went"
    override val order = 1
    private const val CELL_TOP = 5
    private const val COMPARISON_TOP = 10

    override fun any(result: RunResult): Boolean = result.profileComparisons.isNotEmpty() || profiled(result).isNotEmpty()

    private fun profiled(result: RunResult) = result.cells.filter { it.probes["profile"] != null }

    /** A frame row of a cell's profile: name, share, ms per request (null when unknown). */
    private data class Top(val frame: String, val share: Double, val msPerRequest: Double?)

    private fun top(c: CellResult): List<Top> = c.probes["profile"]?.details?.get("topSelf")?.values()?.map { f ->
        Top(f.get("frame").asString(), f.get("share").asDouble(), f.get("msPerRequest")?.takeUnless { it.isNull }?.asDouble())
    }?.take(CELL_TOP).orEmpty()

    private fun how(c: CellResult): String = c.probes["profile"]?.details?.let { d ->
        "${d.get("mode")?.asString()} by ${d.get("engine")?.asString()} (${d.get("event")?.asString()}), ${d.get("samples")?.asLong()} samples"
    } ?: ""

    private fun unit(p: ProfileComparisonRecord) = if (p.perRequest) "CPU ms per request" else "share of each side's samples"
    private fun value(p: ProfileComparisonRecord, x: Double) = if (p.perRequest) "%.4f".format(Locale.ROOT, x) else "%.1f %%".format(Locale.ROOT, x * 100)
    private fun signed(p: ProfileComparisonRecord, x: Double) = (if (x > 0) "+" else "") + value(p, x)

    /** What the run's profiler modes cost, one sentence per mode ([RunResult.profileOverhead]); empty when unknown. */
    fun overhead(result: RunResult): List<String> {
        val modes = profiled(result).mapNotNull { it.probes["profile"]?.details?.get("mode")?.asString() }.toSet()
        // a run that measured the costs itself shows every mode; another shows the modes it profiled with
        val own = result.profileOverhead.all { it.run == result.run.id }
        return result.profileOverhead.filter { own || it.mode in modes }.map { o ->
            val ratio = o.ratio?.let { r -> "%.2f×".format(Locale.ROOT, r) + (if (o.low != null && o.high != null) " [%.2f–%.2f]".format(Locale.ROOT, o.low, o.high) else "") } ?: "no ratio"
            val verdict = when {
                !o.decided -> "not decided"
                o.relation == "same" -> "the same within ±%.0f %%".format(Locale.ROOT, o.threshold * 100)
                else -> "${o.relation} beyond ±%.0f %%".format(Locale.ROOT, o.threshold * 100)
            }
            val where = if (o.run == result.run.id) "in this run" else "in run ${o.run} on ${o.hostname} (${o.cpuModel}), not this run"
            // only an alternating measurement counts pairs of windows
            val how = o.pairs?.let { " over $it pairs of windows in ${o.processes} process(es)" } ?: ""
            "${o.mode} profile: throughput $ratio of the same cell unprofiled ($verdict), measured$how $where"
        }
    }

    override fun html(result: RunResult, e: (String?) -> String): String {
        if (!any(result)) return ""
        val costs = overhead(result).let { lines ->
            if (lines.isEmpty()) "" else "<p class=\"caution\">What a profile costs: " + lines.joinToString("; ") { e(it) } + ".</p>"
        }
        val comparisons = result.profileComparisons.joinToString("") { p ->
            val links = p.files.entries.joinToString(" · ") { (role, file) -> "<a href=\"${e(file)}\">what $role (flame graph)</a>" }
            val rows = p.frames.take(COMPARISON_TOP).joinToString("") { f ->
                "<tr><td><code>${e(f.frame)}</code></td><td class=\"num\">${value(p, f.a)}</td><td class=\"num\">${value(p, f.b)}</td><td class=\"num\">${signed(p, f.change)}</td></tr>"
            }
            "<h3>${e(p.name)}</h3><p class=\"caution\">Self time by frame, ${e(unit(p))}: a = ${e(p.a)} (${p.cellsA} windows), b = ${e(p.b)} (${p.cellsB} windows). $links" +
                p.notes.joinToString("") { " ${e(it)}." } + "</p>" +
                "<table><thead><tr><th>frame</th><th>a</th><th>b</th><th>a − b</th></tr></thead><tbody>$rows</tbody></table>"
        }
        val cells = profiled(result).joinToString("") { c ->
            val p = c.probes.getValue("profile")
            val graph = p.files["flameGraph"]?.let { " · <a href=\"${e(it)}\">flame graph</a>" } ?: ""
            val rows = top(c).joinToString("") { t ->
                "<tr><td><code>${e(t.frame)}</code></td><td class=\"num\">${"%.1f %%".format(Locale.ROOT, t.share * 100)}</td><td class=\"num\">${t.msPerRequest?.let { "%.4f".format(Locale.ROOT, it) } ?: "–"}</td></tr>"
            }
            "<h4>${e(c.key)}</h4><p class=\"caution\">${e(how(c))}$graph${p.notes.joinToString("") { " " + e(it) + "." }}</p>" +
                (if (rows.isEmpty()) "" else "<table><thead><tr><th>top frames, self</th><th>share</th><th>CPU ms per request</th></tr></thead><tbody>$rows</tbody></table>")
        }
        return "<section id=\"$id\"><h2>Where the time went</h2>$costs$comparisons<h3>Each cell's profile</h3>$cells</section>"
    }

    override fun markdown(result: RunResult, md: (String?) -> String): String = buildString {
        if (!any(result)) return ""
        appendLine()
        appendLine("**Where the time went** (profiles of the measured windows)")
        overhead(result).takeIf { it.isNotEmpty() }?.let { appendLine(); appendLine("What a profile costs: " + it.joinToString("; ") { l -> md(l) } + ".") }
        for (p in result.profileComparisons) {
            appendLine()
            appendLine("*${md(p.name)}*: self time by frame, ${unit(p)}; a = ${md(p.a)}, b = ${md(p.b)}" +
                p.files.entries.joinToString("") { (role, file) -> "; [what $role]($file)" })
            appendLine()
            appendLine("| frame | a | b | a − b |")
            appendLine("|---|--:|--:|--:|")
            p.frames.take(COMPARISON_TOP).forEach { appendLine("| `${it.frame}` | ${value(p, it.a)} | ${value(p, it.b)} | ${signed(p, it.change)} |") }
        }
        val cells = profiled(result)
        if (cells.isNotEmpty()) {
            appendLine()
            cells.forEach { c ->
                val t = top(c).firstOrNull()
                appendLine("- ${md(c.key)}: ${md(how(c))}" + (t?.let { "; top frame `${it.frame}` ${"%.1f".format(Locale.ROOT, it.share * 100)} %" } ?: "") +
                    (c.probes.getValue("profile").files["flameGraph"]?.let { " ([flame graph]($it))" } ?: ""))
            }
        }
    }
}
