package stackbench.runner.report

import stackbench.runner.results.CellStatus
import stackbench.runner.results.Format
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus

/**
 * report.html: one self-contained page from results.json alone. The chart library and the renderer are
 * inlined, and a Content-Security-Policy allows only those two scripts (by hash) and no request at all.
 */
object HtmlReport {
    private fun e(s: String?) = Html.text(s)

    fun render(result: RunResult): String {
        val view = RunView(result)
        val page = Page(view)
        val sections = listOf(page.header(), page.findings(), page.overview(), page.capacity(), page.figures(), page.startup(), page.details()) +
            ProbeSection.ALL.map { it.html(result, ::e) } + page.environment()
        val body = sections.joinToString("\n")
        // every chart carries where its figures come from, drawn into it (report.js), so a copied chart still says it
        return Html.chartedPage("${result.run.suite} · stackbench report", body,
            "Rendered by stackbench from results.json (schema ${e(result.schema)}) alone; re-render it with <code>./stackbench report DIR</code>.",
            mapOf("charts" to page.specs, "provenance" to stackbench.runner.results.RunProvenance.of(result)))
    }

    /** The page's sections; collects the chart specs its figures place. */
    private class Page(val view: RunView) {
        val specs = mutableListOf<ChartSpec>()
        private val charts = Charts(view)
        private val tables = Tables(view)
        private val result = view.result

        fun figure(spec: ChartSpec): String {
            val id = if (specs.any { it.id == spec.id }) "${spec.id}-${specs.size}" else spec.id
            specs += spec.copy(id = id)
            return Html.figure(spec.copy(id = id))
        }

        fun header(): String {
            val run = result.run
            val cells = result.cells
            val failed = cells.count { it.status != CellStatus.OK }
            val swept = view.panels.mapNotNull { p -> p.x?.let { x -> "${x.name} ${p.xValues.joinToString(", ") { Format.plain(it) }}" } }.distinct()
            val facts = listOf(
                CellCount.of(result) { "<b>$it</b>" } + if (failed > 0) ", <b>$failed</b> failed" else "",
                "<b>${view.configs.size}</b> configurations",
                view.repetitionsText.replace(Regex("^(\\d+)"), "<b>$1</b>"),
                if (swept.isEmpty()) "nothing swept" else "swept: " + e(swept.joinToString("; ")),
                e("${result.environment.cpuModel}, ${result.environment.logicalCpus} CPUs"),
                e(cells.map { it.load.driver }.distinct().joinToString(", ").ifEmpty { "no load driver" }),
            )
            val status = run.status.name.lowercase()
            val warning = if (run.status != RunStatus.COMPLETE) "<p class=\"lede\"><span class=\"flag bad\">$status</span> This run did not complete: the report shows the ${cells.size} cells it recorded.</p>" else ""
            val key = view.apps.joinToString("") { "<span>${tables.swatch(it)}${e(it)}</span>" }
            val toc = (listOf("findings" to "What this run shows", "overview" to "Throughput and latency", "capacity" to "Capacity", "figures" to "Key figures",
                "startup" to "Startup", "cells" to "Inside the cells") +
                ProbeSection.ALL.filter { it.any(result) }.map { it.id to it.title } + ("environment" to "Environment"))
                .filter { (id, _) -> id != "capacity" || result.searches.isNotEmpty() }
            return """<header class="top">
<p class="kicker">stackbench report · <span class="status $status">$status</span></p>
<h1>${e(run.suite)}</h1>
${if (run.description.isNotBlank()) "<p class=\"lede\">${e(run.description)}</p>" else ""}
<p class="meta">run ${e(run.id)} · started ${e(Format.instant(run.startedAt))}${run.finishedAt?.let { " · finished ${e(Format.instant(it))}" } ?: ""}</p>
<ul class="facts">${facts.joinToString("") { "<li>$it</li>" }}</ul>
<div class="key" aria-label="colour of each app configuration">$key</div>
<nav class="toc">${toc.joinToString("") { (id, t) -> "<a href=\"#$id\">$t</a>" }}</nav>
</header>
$warning"""
        }

        fun findings(): String {
            val items = Findings.of(view).joinToString("\n") { gf ->
                val name = { s: String -> "<strong>${e(s)}</strong>" }
                val lines = listOfNotNull(gf.throughput, gf.p99).map { "<p>${Findings.sentence(it, name, ::e)}</p>" } +
                    gf.failed.map { "<p><span class=\"flag bad\">failed</span> ${e(it)}</p>" }
                "<li><h3>${e(gf.group.title)}</h3>${lines.joinToString("").ifEmpty { "<p>No cell here was measured.</p>" }}</li>"
            }
            val basis = "Whether two configurations differ is decided only by the suite's comparisons (over app processes, above); the ranking below is descriptive."
            val chart = ForestSpec.ofDecisions("comparisons", "The suite's comparisons, as one picture", result.decisions)?.let { "<div class=\"charts full\">${figure(it)}</div>" } ?: ""
            val decided = if (result.decisions.isEmpty()) "" else "<h3>The suite's comparisons: ${Decided.count(result.decisions)}</h3>$chart<ul class=\"findings\">" +
                result.decisions.joinToString("") { "<li><p><strong>${e(it.name)}</strong>: ${Decided.sentence(it, ::e)}</p>${SettingsTable.html(it, result.cells, ::e)}</li>" } + "</ul>"
            return """<section id="findings"><h2>What this run shows</h2>$decided<p class="caution">Computed from the results: at each swept value, the best configuration by throughput and by p99 (medians of the windows that count), and its margin over the next. $basis</p><ul class="findings">$items</ul></section>"""
        }

        fun overview(): String = "<section id=\"overview\"><h2>Throughput and latency</h2>" + view.panels.joinToString("") { p ->
            val figures = charts.overview(p).joinToString("", transform = ::figure)
            (if (view.panels.size > 1) "<h3>${e(p.title)}</h3>" else "") + "<div class=\"charts wide\">$figures</div>"
        } + "</section>"

        fun capacity(): String {
            if (result.searches.isEmpty()) return ""
            val figures = charts.capacity().joinToString("", transform = ::figure)
            return "<section id=\"capacity\"><h2>Capacity</h2><p class=\"caution\">The highest offered rate at which p99 and the error rate stayed within the target.</p><div class=\"charts wide\">$figures</div>${tables.capacity()}</section>"
        }

        fun figures(): String {
            val note = if (view.repetitions > 1) "Figures are medians over the windows that count for each (finished, and not flagged for that figure; all finished windows, marked, when none counts); below each, their range." else "One repetition of each configuration."
            return "<section id=\"figures\"><h2>Key figures</h2><p class=\"caution\">$note Flags stand beside the figure they affect; hover one for its message.</p>${tables.keyFigures()}</section>"
        }

        fun startup(): String = charts.startup()?.let { "<section id=\"startup\"><h2>Startup</h2><div class=\"charts\">${figure(it)}</div></section>" } ?: ""

        fun details(): String = "<section id=\"cells\"><h2>Inside the cells</h2><p class=\"caution\">For each swept value: the latency spectrum, figures second by second, and the app's resources as sampled.</p>" +
            view.groups.joinToString("") { g ->
                val figures = charts.details(g).joinToString("", transform = ::figure)
                val clocks = g.configs.flatMap { it.ok }.mapNotNull { c -> ClockChart.of(c, view, "c-clock-${Html.slug(c.key)}") }
                // each configuration's processes by how their throughput went over the warm-up; one that falls says so
                val courses = g.configs.mapNotNull { cfg ->
                    val byProcess = stackbench.runner.results.Settlings.byProcess(cfg.ok).takeIf { it.isNotEmpty() } ?: return@mapNotNull null
                    val falling = stackbench.runner.results.Settlings.fallingNote(cfg.ok)
                    "<li>${e(cfg.key)}: ${byProcess.joinToString("; ") { (p, s) -> "${e(p.substringBefore('@'))} ${e(s.label())}" }}" +
                        (falling?.let { "; <strong>${e(it)}</strong>" } ?: "") + "</li>"
                }
                val fallingNotes = g.configs.mapNotNull { cfg -> stackbench.runner.results.Settlings.fallingNote(cfg.ok)?.let { "${e(cfg.key)}: ${e(it)}" } }
                val clock = (if (fallingNotes.isEmpty()) "" else "<p class=\"caution\"><strong>${fallingNotes.joinToString("<br>")}</strong></p>") +
                    (if (clocks.isEmpty()) "" else "<details class=\"clocks\"><summary>Priming, warm-up and window on one clock, cell by cell (${clocks.size})</summary>" +
                    (if (courses.isEmpty()) "" else "<p>How each process's throughput went over its warm-up:</p><ul>${courses.joinToString("")}</ul>") +
                    "<div class=\"charts wide\">${clocks.joinToString("", transform = ::figure)}</div></details>")
                "<h3 id=\"${Html.slug(g.id)}\">${e(g.title)}</h3><div class=\"charts\">$figures</div>$clock${tables.cells(g)}${requests(g)}"
            } + "</section>"

        /** Each cell of [g] with named requests or a scenario: its requests' table and spectra, its warm-up and window's steadiness ([RequestsView]). */
        fun requests(g: Group): String = g.configs.flatMap { it.ok }.sortedBy { it.index }.joinToString("") { c ->
            val steadiness = RequestsView.steadiness(c)
            val table = RequestsView.table(c, ::e)
            if (table.isEmpty() && steadiness == null) return@joinToString ""
            val chart = RequestsView.spectrum(c, "c-requests-${Html.slug(c.key)}")?.let { "<div class=\"charts\">${figure(it)}</div>" } ?: ""
            "<h4>${e(c.key)}</h4>" + (steadiness?.let { "<p class=\"caution\">${e(it)}</p>" } ?: "") + table + chart
        }

        fun environment(): String = "<section id=\"environment\"><h2>Environment</h2>${EnvironmentSection.render(result)}</section>"
    }
}
