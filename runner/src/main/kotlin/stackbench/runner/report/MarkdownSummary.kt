package stackbench.runner.report

import stackbench.runner.results.Format
import stackbench.runner.results.RunResult
import stackbench.runner.results.Sittings
import stackbench.runner.stats.Estimate

/** summary.md: the key table in Markdown, fit to paste into an issue or a README. */
object MarkdownSummary {
    /** Text safe in a Markdown table cell: no markup, no HTML, no column break. */
    fun md(s: String?): String {
        if (s == null) return ""
        val out = StringBuilder()
        for (ch in s) when (ch) {
            '\\', '`', '*', '_', '[', ']', '#', '|', '~', '!' -> out.append('\\').append(ch)
            '<' -> out.append("&lt;")
            '>' -> out.append("&gt;")
            '&' -> out.append("&amp;")
            '\n', '\r' -> out.append(' ')
            else -> out.append(ch)
        }
        return out.toString()
    }

    fun render(result: RunResult): String {
        val view = RunView(result)
        val run = result.run
        val env = result.environment
        val failed = result.cells.count { it.status != stackbench.runner.results.CellStatus.OK }
        val latency = view.configs.filter { it.ok.isNotEmpty() }.map { it.corrected }.distinct().let { kinds ->
            when (kinds) {
                listOf(true) -> "open-model latency (counted from each request's intended send time)"
                listOf(false) -> "closed-model latency (a stalled server also stops the client, so stalls are under-counted)"
                else -> "open- and closed-model latency, marked per row"
            }
        }
        val mixed = view.configs.map { it.corrected }.distinct().size > 1
        val reps = view.repetitions > 1
        val rows = view.configs.joinToString("\n") { c ->
            val f = c.first
            val flags = c.flags.map { it.code } + (if (c.throughput?.noisy == true || c.p99?.noisy == true) listOf("noisy") else emptyList()) +
                c.failed.map { "r${it.repetition} ${it.status.name.lowercase()}: ${it.reason ?: ""}" }
            val cells = listOf(
                md(c.app), md(f.endpoint.label), md(f.load.label), "${c.ok.size}/${c.cells.size}",
                figure(c.throughput, reps, Format::rate),
                figure(c.p50, false, Format::ms),
                figure(c.p99, reps, Format::ms) + if (mixed) (if (c.corrected) " (open)" else " (closed)") else "",
                Format.percent(c.ok.map { it.window.measured!!.errorRate }.takeIf { it.isNotEmpty() }?.let { stackbench.runner.stats.Statistics.median(it) }, 2),
                Format.percent(c.ok.mapNotNull { it.resources.summary?.cpuShare }.takeIf { it.isNotEmpty() }?.let { stackbench.runner.stats.Statistics.median(it) }),
                md(flags.joinToString(", ")),
            )
            "| " + cells.joinToString(" | ") + " |"
        }
        val findings = Findings.of(view).flatMap { gf ->
            listOfNotNull(gf.throughput, gf.p99).map { "- *${md(gf.group.title)}*: ${Findings.sentence(it, { n -> "**${md(n)}**" }, ::md)}" } +
                gf.failed.map { "- *${md(gf.group.title)}*: failed: ${md(it)}" }
        }
        return buildString {
            appendLine("### ${md(run.suite)}: stackbench results")
            appendLine()
            if (run.description.isNotBlank()) { appendLine(md(run.description)); appendLine() }
            appendLine("Run ${md(run.id)} (${run.status.name.lowercase()}): ${CellCount.of(result)}" +
                (if (failed > 0) ", $failed failed" else "") + ", ${view.repetitionsText}. " +
                "${md(env.cpuModel)}, ${env.logicalCpus} CPUs; apps on ${md(env.appJdk)}; ${md(env.drivers.values.joinToString(", "))}; isolation ${md(env.isolation)}.")
            appendLine()
            Sittings.of(result).takeIf { it.size > 1 }?.let { ss ->
                appendLine("Resumed: ${ss.size} sittings, " + ss.joinToString("; ") { s ->
                    "from ${s.startedAt.take(16).replace('T', ' ')} UTC on ${md(s.cpuModel)} at ${s.gitCommit?.take(10) ?: "no commit"}" +
                        if (s.gitDirty == true) " (uncommitted changes)" else ""
                } + "; the host above is the last one's.")
                appendLine()
            }
            appendLine("| configuration | endpoint | load | measured | req/s | p50 ms | p99 ms | errors | app CPU | flags |")
            appendLine("|---|---|---|--:|--:|--:|--:|--:|--:|---|")
            appendLine(rows)
            appendLine()
            appendLine("Latency: $latency." + if (reps) " Figures are medians over the windows that count for each (finished, not flagged for that figure); in brackets their range." else "")
            if (result.searches.isNotEmpty()) {
                appendLine()
                appendLine("**Capacity**: the highest offered rate (open model) at which p99 and errors stayed within the target")
                appendLine()
                appendLine("| configuration | endpoint | target p99 | capacity req/s | searches held | rates tried |")
                appendLine("|---|---|--:|--:|--:|--:|")
                for (g in CapacitySummary.of(result.searches)) {
                    val s = g.first
                    val capacity = g.estimate?.let { figure(it, true, Format::rate) } ?: "none held"
                    appendLine("| ${md(s.app)} | ${md(s.endpoint)} | ${Format.ms(s.sloP99Ms)} ms | $capacity | " +
                        "${g.held.size}/${g.searches.size} | ${g.searches.joinToString(", ") { it.steps.size.toString() }} |")
                }
            }
            if (result.decisions.isNotEmpty()) {
                appendLine()
                appendLine("**The suite's comparisons** (${Decided.count(result.decisions)}; a ÷ b of throughput unless another figure is named: the ratio of geometric means over app processes, with its interval at the look's confidence, against each threshold)")
                appendLine()
                result.decisions.forEach { d ->
                    appendLine("- **${md(d.name)}**: ${Decided.sentence(d, ::md)}")
                    // a limit that bound a side, and which settings differ (report.html lays them side by side)
                    val sides = SideBySide.of(result.cells.filter { it.configKey == d.a }, result.cells.filter { it.configKey == d.b })
                    sides.binds(d.a, d.b).forEach { appendLine("  - a limit binds: ${md(it)}") }
                    if (sides.differing.isNotEmpty()) appendLine("  - settings that differ: ${md(sides.differing.joinToString("; ") { "${it.name} ${it.a} → ${it.b}" })}")
                }
            }
            if (findings.isNotEmpty()) {
                appendLine()
                appendLine("**What this run shows** (computed from the results)")
                appendLine()
                findings.forEach { appendLine(it) }
            }
            ProbeSection.ALL.forEach { append(it.markdown(result, ::md)) }
        }
    }

    private fun figure(e: Estimate?, spread: Boolean, fmt: (Double?) -> String): String = when {
        e == null -> "–"
        !spread || e.n < 2 -> fmt(e.median)
        else -> "${fmt(e.median)} (${fmt(e.min)}–${fmt(e.max)})"
    }
}
