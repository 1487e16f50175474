package stackbench.runner.report

import stackbench.runner.results.Efficiency
import stackbench.runner.ceiling.Ceilings
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Flag
import stackbench.runner.results.Format
import stackbench.runner.stats.Estimate
import stackbench.runner.stats.Statistics

/** The report's tables as HTML. Every string taken from results passes through [Html.text]. */
class Tables(private val view: RunView) {
    private fun e(s: String?) = Html.text(s)

    fun swatch(app: String): String {
        val st = view.style(app)
        return """<span class="sw" style="color:${st.color}" aria-hidden="true">${Palette.glyph(st.symbol)}</span>"""
    }

    fun badge(f: Flag): String {
        val kind = when (f.code) { "closed-model" -> " info"; "verify-failed", "oom", "errors" -> " bad"; else -> "" }
        return """<span class="flag$kind" title="${e(f.message)}">${e(f.code)}</span>"""
    }

    private fun badges(flags: List<Flag>, affects: String) = flags.filter { it.affects == affects }.joinToString("", transform = ::badge)

    private fun median(values: List<Double>) = values.takeIf { it.isNotEmpty() }?.let { Statistics.median(it) }

    private fun spread(e: Estimate?, fmt: (Double?) -> String): String = when {
        e == null || e.n < 2 -> ""
        else -> """<small title="range over ${e.n} windows">${fmt(e.min)}–${fmt(e.max)}</small>"""
    }

    private val ceilings get() = view.configs.any { c -> c.cells.any { Ceilings.recorded(it) != null } }

    /** One row per configuration: medians over its repetitions, flags beside the figure they affect. */
    fun keyFigures(): String {
        val ceil = ceilings
        val head = listOf("configuration", "endpoint · load", "n:measured", "n:req/s", "n:p50 ms", "n:p99 ms", "n:p99.9 ms", "n:errors",
            "n:app CPU", "n:req per CPU-s", "n:RSS max", "n:ctx sw./s") + (if (ceil) listOf("n:ceiling req/s", "n:efficiency") else emptyList()) + "flags, failures"
        val rows = view.configs.joinToString("\n") { c -> configRow(c, ceil) }
        return table(head, rows) + flagLegend(view.configs.flatMap { it.flags })
    }

    private fun configRow(c: Config, ceil: Boolean): String {
        val f = c.first
        val flags = c.flags + (if (c.throughput?.noisy == true || c.p99?.noisy == true) listOf(Flag("noisy", "the windows spread more than ${Format.percent(Statistics.NOISY_SPREAD)} of the median", "other")) else emptyList())
        val ok = c.ok
        val latencyTag = if (c.corrected) """<span class="flag info" title="open model: latency counted from each request's intended send time">open-model</span>""" else ""
        val errors = median(ok.map { it.window.measured!!.errorRate })
        val cells = listOf(
            t("<span class=\"nowrap\">${swatch(c.app)}${e(c.app)}</span><small>${e(f.app.label)} · Boot ${e(f.app.boot)}${if (f.app.virtualThreads) " · virtual threads" else ""}</small>"),
            t("${e(f.endpoint.label)} · ${e(f.load.label)}<small>${e(f.endpoint.method)} ${e(f.endpoint.path)}</small><small>${e(f.load.driver)}, ${e(f.load.model)} model</small>"),
            n("${ok.size} of ${c.cells.size}"),
            n("<b>${Format.rate(c.throughput?.median)}</b>${spread(c.throughput, Format::rate)}${badges(flags, "throughput")}"),
            n(Format.ms(c.p50?.median)),
            n("<b>${Format.ms(c.p99?.median)}</b>${spread(c.p99, Format::ms)}$latencyTag${badges(flags, "latency")}"),
            n(Format.ms(c.p999?.median)),
            n(Format.percent(errors, 2)),
            n(Format.percent(median(ok.mapNotNull { it.resources.summary?.cpuShare }))),
            n(efficiency(ok.mapNotNull(Efficiency::perCpuSecond), Format::rate)),
            n(Format.mib(ok.mapNotNull { it.resources.summary?.rssMaxBytes }.maxOrNull()) + (ok.mapNotNull { it.resources.summary?.threadsMax }.maxOrNull()?.let { "<small>$it threads</small>" } ?: "") +
                (ok.mapNotNull(Efficiency::perMib).takeIf { it.isNotEmpty() }?.let { "<small>${efficiency(it) { v -> "%.1f".format(java.util.Locale.ROOT, v) }} req/s per MiB</small>" } ?: "")),
            n(Format.perSecond(median(ok.mapNotNull { r -> r.resources.summary?.let { (it.voluntaryCtxPerSecond ?: 0.0) + (it.involuntaryCtxPerSecond ?: 0.0) } }))),
        ) + (if (ceil) ceilingCells(c) else emptyList()) + t(
            flags.filter { it.affects != "throughput" && it.affects != "latency" }.joinToString("", transform = ::badge) +
                c.failed.joinToString("") { """<small class="bad">r${it.repetition} ${e(it.status.name.lowercase())}: ${e(it.reason)}</small>""" })
        return row(cells, ok.isEmpty())
    }

    /** The median of a configuration's windows' efficiency, with their range when they differ; – without any. */
    private fun efficiency(values: List<Double>, format: (Double) -> String): String {
        if (values.isEmpty()) return "–"
        val range = if (values.size > 1 && values.min() != values.max()) " <small>${format(values.min())}–${format(values.max())}</small>" else ""
        return format(Statistics.median(values)) + range
    }

    private fun ceilingCells(c: Config): List<Td> {
        val ceiling = c.cells.firstNotNullOfOrNull { Ceilings.recorded(it) } ?: return listOf(n("–"), n("–"))
        val efficiency = median(c.ok.mapNotNull { Ceilings.recorded(it)?.efficiency })
        return listOf(n("""<span title="${e(ceiling.explanation)}">${Format.rate(ceiling.requestsPerSecond)}</span><small>${e(ceiling.law)}</small>"""), n(Format.percent(efficiency)))
    }

    /** Every cell of a group, each repetition on its own row; under it, its flags' messages and a failure's log tail. */
    fun cells(group: Group): String {
        val head = listOf("n:#", "cell", "n:req/s", "n:p50 ms", "n:p99 ms", "n:max ms", "n:errors", "n:app CPU", "n:RSS max", "n:threads",
            "n:vol. ctx/s", "n:invol. ctx/s", "n:GC pauses", "n:driver CPU", "n:startup")
        val rows = group.configs.flatMap { it.cells }.sortedBy { it.index }.joinToString("\n") { cellRows(group, it, head.size) }
        return table(head, rows)
    }

    private fun cellRows(group: Group, c: CellResult, columns: Int): String {
        val m = c.window.measured
        val r = c.resources.summary
        val ok = c.status == CellStatus.OK
        val quiet = c.flags.filter { it.code == "closed-model" }
        val loud = c.flags - quiet.toSet()
        val name = group.panel.label(SeriesKey(c.app.name, c.endpoint.strategy)) + " r${c.repetition}"
        val cells = listOf(
            n(c.index.toString()), t("""<span class="nowrap">${swatch(c.app.name)}<span title="${e(c.key)}">${e(name)}</span></span>""" +
                if (ok) "" else "<small>${e(c.status.name.lowercase())}</small>"),
            n(Format.rate(m?.throughput) + badges(loud, "throughput")), n(Format.ms(m?.latency?.p50)),
            n(Format.ms(m?.latency?.p99) + (quiet + loud).filter { it.affects == "latency" }.joinToString("", transform = ::badge)), n(Format.ms(m?.latency?.max)),
            n(m?.let { "${Format.count(it.errorCount)}<small>${Format.percent(it.errorRate, 2)}</small>" } ?: "–"),
            n(Format.percent(r?.cpuShare)), n(Format.mib(r?.rssMaxBytes)), n(r?.threadsMax?.toString() ?: "–"),
            n(Format.perSecond(r?.voluntaryCtxPerSecond)), n(Format.perSecond(r?.involuntaryCtxPerSecond)),
            n(r?.gcPauses?.let { "$it<small>${Format.ms(r.gcPauseTotalMs)} ms</small>" } ?: "–"),
            n(Format.percent(r?.driverCpuShare)), n(Format.seconds(c.start.startup?.toHealthyMs)),
        )
        val notes = loud.map { "<div>${badge(it)} ${e(it.message)}</div>" } +
            listOfNotNull(c.verification?.takeIf { !it.ok }?.let { v -> "<div>${badge(Flag("verify-failed", v.problem ?: "", "throughput"))} ${e(v.problem)} <code>${e(v.bodyExcerpt)}</code></div>" }) +
            (if (!ok) listOf("<div><b>${e(c.status.name.lowercase())}:</b> ${e(c.reason)}</div>" + logTail(c)) else emptyList())
        val notesRow = if (notes.isEmpty()) "" else "<tr class=\"notes${if (!ok) " failedrow" else ""}\"><td></td><td colspan=\"${columns - 1}\">${notes.joinToString("")}</td></tr>"
        return row(cells, !ok) + notesRow
    }

    private fun logTail(c: CellResult): String = c.logTail?.takeIf { it.isNotEmpty() }?.let { lines ->
        "<details><summary>last ${lines.size} lines of the app's log</summary><pre>${e(lines.joinToString("\n"))}</pre></details>"
    } ?: ""

    /** Capacity searches: the highest rate that held the target, and where it broke. */
    fun capacity(): String {
        val head = listOf("configuration", "endpoint", "n:rep.", "n:target p99", "n:target errors", "n:capacity req/s", "n:broke at req/s", "n:rates tried")
        val rows = view.result.searches.joinToString("\n") { s ->
            val cells = listOf(t("${swatch(s.app)}${e(s.app)}"), t(e(s.endpoint)), n(s.repetition.toString()), n("${Format.ms(s.sloP99Ms)} ms"),
                n(Format.percent(s.sloErrorRate, 2)), n("<b>${s.capacity?.let(Format::rate) ?: "none held"}</b>"), n(s.brokeAt?.let(Format::rate) ?: "not reached"), n(s.steps.size.toString()))
            row(cells, false)
        }
        return summaryOfCapacity() + table(head, rows)
    }

    /**
     * One row per searched configuration: the median capacity over its repetitions with their range, and whether
     * the repetitions spread too much to trust. Shown only when some search repeated.
     */
    private fun summaryOfCapacity(): String {
        val groups = CapacitySummary.of(view.result.searches)
        if (groups.none { it.searches.size > 1 }) return ""
        val head = listOf("configuration", "endpoint", "n:repetitions", "n:target p99", "n:median capacity req/s", "n:range", "n:spread")
        val rows = groups.joinToString("\n") { g ->
            val s = g.first
            val searches = g.searches
            val held = g.held
            val est = g.estimate
            val interval = if (est != null && est.n > 1) "${Format.rate(est.min)} – ${Format.rate(est.max)}" else "–"
            val cells = listOf(t("${swatch(s.app)}${e(s.app)}"), t(e(s.endpoint)),
                n(if (held.size == searches.size) "${searches.size}" else "${held.size} of ${searches.size} held"), n("${Format.ms(s.sloP99Ms)} ms"),
                n("<b>${est?.let { Format.rate(it.median) } ?: "none held"}</b>"), n(interval),
                n(est?.let { Format.percent(it.spread) + if (it.noisy) " noisy" else "" } ?: "–"))
            row(cells, false)
        }
        return table(head, rows)
    }

    private fun flagLegend(flags: List<Flag>): String {
        val byCode = flags.groupBy { it.code }
        if (byCode.isEmpty()) return ""
        return "<dl class=\"flags\">" + byCode.entries.joinToString("") { (code, fs) ->
            "<dt>${badge(fs.first())}</dt><dd>${e(fs.first().message.substringBefore(" / "))}${if (fs.size > 1 || fs.first().message.contains(" / ")) " (the first; hover a flag, or see the cells below, for each)" else ""}</dd>"
        } + "</dl>"
    }

    /** A table cell's markup; numeric cells align right. */
    private class Td(val html: String, val numeric: Boolean)

    private fun n(html: String) = Td(html, true)
    private fun t(html: String) = Td(html, false)

    private fun row(cells: List<Td>, failed: Boolean) = "<tr${if (failed) " class=\"failedrow\"" else ""}>" +
        cells.joinToString("") { if (it.numeric) "<td class=\"n\">${it.html}</td>" else "<td>${it.html}</td>" } + "</tr>"

    private fun table(head: List<String>, rows: String): String =
        "<div class=\"scroll\"><table><thead><tr>" + head.joinToString("") { h ->
            if (h.startsWith("n:")) "<th class=\"n\">${e(h.drop(2))}</th>" else "<th>${e(h)}</th>"
        } + "</tr></thead><tbody>\n$rows\n</tbody></table></div>"
}
