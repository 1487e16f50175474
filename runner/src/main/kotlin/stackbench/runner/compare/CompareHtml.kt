package stackbench.runner.compare

import stackbench.runner.report.ForestSpec
import stackbench.runner.report.Decided
import stackbench.runner.report.Html
import stackbench.runner.results.Format
import stackbench.runner.results.DecisionRecord
import stackbench.runner.stats.Estimate

/** compare.html: the comparison as one self-contained page, its charts drawn by the report's script, every string from results escaped. */
object CompareHtml {
    private fun e(s: String?) = Html.text(s)

    fun render(c: Comparison): String {
        val env = if (c.differences.isEmpty()) "<p>The same JDKs, kernel, CPU model, drivers, versions and settings in both runs.</p>"
        else "<p class=\"lede\"><span class=\"flag bad\">${c.differences.size} difference(s)</span> Figures may differ for these reasons alone.</p>" +
            "<div class=\"scroll\"><table><thead><tr><th>what</th><th>A</th><th>B</th></tr></thead><tbody>" +
            c.differences.joinToString("") { "<tr><td>${e(it.what)}</td><td>${e(it.a)}</td><td>${e(it.b)}</td></tr>" } + "</tbody></table></div>"
        val rows = c.changes.joinToString("\n") { ch ->
            val note = if (ch.latencyA != null && ch.latencyB != null && ch.latencyA != ch.latencyB)
                "<small>p99 is ${e(ch.latencyA)}-model in A, ${e(ch.latencyB)}-model in B</small>" else ""
            val cost = if (ch.perCpuA == null && ch.perCpuB == null) "" else "<small class=\"warm\">requests per CPU-second of the app: " +
                "${e(CompareWords.estimate(CompareWords.Figure.THROUGHPUT, ch.perCpuA))} → ${e(CompareWords.estimate(CompareWords.Figure.THROUGHPUT, ch.perCpuB))}</small>"
            val warmup = if (ch.warmupA == null && ch.warmupB == null) "" else
                "<small class=\"warm\">warm-up A: ${e(ch.warmupA ?: "not classed")}; B: ${e(ch.warmupB ?: "not classed")}</small>"
            val falling = listOfNotNull(ch.fallingA?.let { "A: $it" }, ch.fallingB?.let { "B: $it" })
                .joinToString("") { "<small class=\"warm\"><strong>${e(it)}</strong></small>" }
            val binds = (ch.bindsA.map { "A: $it" } + ch.bindsB.map { "B: $it" })
                .joinToString("") { "<small class=\"warm\"><span class=\"flag bad\">a limit binds</span> ${e(it)}</small>" }
            "<tr><td>${e(ch.app)}<small>${e(ch.endpoint)} · ${e(ch.load)}</small>$note$cost$warmup$falling$binds</td><td class=\"n\">${ch.measuredA} → ${ch.measuredB}</td>" +
                cells(CompareWords.Figure.THROUGHPUT, ch.throughputA, ch.throughputB, ch.throughput) + cells(CompareWords.Figure.P99, ch.p99A, ch.p99B, ch.p99) + "</tr>"
        }
        val only = listOfNotNull(
            c.onlyA.takeIf { it.isNotEmpty() }?.let { "<p>Only in A: ${e(it.joinToString(", "))}</p>" },
            c.onlyB.takeIf { it.isNotEmpty() }?.let { "<p>Only in B: ${e(it.joinToString(", "))}</p>" },
        ).joinToString("")
        val table = if (c.changes.isEmpty()) "<p>No configuration appears in both runs: nothing to compare.</p>" else
            "<div class=\"scroll\"><table><thead><tr><th>configuration</th><th class=\"n\">windows A → B</th>" +
                "<th class=\"n\">req/s A</th><th class=\"n\">req/s B</th><th>change</th><th class=\"n\">p99 ms A</th><th class=\"n\">p99 ms B</th><th>change</th></tr></thead><tbody>\n$rows\n</tbody></table></div>"
        val labelled = { pick: (ConfigChange) -> DecisionRecord -> c.changes.map { "${it.app} · ${it.endpoint} · ${it.load}" to pick(it) } }
        val charts = listOfNotNull(
            ForestSpec.ofLabelled("throughput-changes", "Throughput, B ÷ A", "requests a second, B ÷ A", labelled { it.throughput }),
            ForestSpec.ofLabelled("p99-changes", "p99 latency, B ÷ A", "p99, B ÷ A (lower is faster)", labelled { it.p99 }),
        )
        val pictures = if (charts.isEmpty()) "" else "<div class=\"charts full\">${charts.joinToString("") { Html.figure(it) }}</div>"
        val head = """<header class="top"><p class="kicker">stackbench compare</p><h1>${e(c.a.run.suite)}: A → B</h1>
<p class="meta">A: ${e(c.a.run.id)} (${e(c.a.run.startedAt)}) · B: ${e(c.b.run.id)} (${e(c.b.run.startedAt)})</p></header>
<section><h2>Environment</h2>$env</section>
<section><h2>Changes per configuration</h2>
<p class="caution">Each side: the median of the windows that count (finished, unflagged for the figure), in brackets their range.
Each change is B ÷ A decided over app processes, the process as the unit, as the gate and a suite's comparisons decide it: the ratio of geometric means of process means with its interval, higher or lower only when the whole interval lies beyond ±${Format.percent(c.threshold)}, the same when it lies inside; with fewer than 2 processes a side it cannot tell.</p>
$pictures$table$only</section>"""
        return Html.chartedPage("${c.a.run.id} → ${c.b.run.id} · stackbench compare", head, "Rendered by stackbench from the two runs' results.json.",
            mapOf("charts" to charts, "provenance" to "A: ${stackbench.runner.results.RunProvenance.of(c.a)}\nB: ${stackbench.runner.results.RunProvenance.of(c.b)}"),
            "\n.good { color: #1d6b3a; font-weight: 600; } .bad { color: #9b1c1c; font-weight: 600; }\ntd small.warm { white-space: normal; min-width: 16em; }\n")
    }

    private fun cells(f: CompareWords.Figure, a: Estimate?, b: Estimate?, d: DecisionRecord): String {
        val cls = when (CompareWords.good(f, d)) { true -> "good"; false -> "bad"; null -> "" }
        return "<td class=\"n\">${e(CompareWords.estimate(f, a))}</td><td class=\"n\">${e(CompareWords.estimate(f, b))}</td>" +
            "<td><span class=\"$cls\">${e(Decided.ratio(d) + Decided.interval(d))}</span><small>${e(Decided.verdict(d) + " (" + Decided.basis(d) + ")")}</small></td>"
    }
}
