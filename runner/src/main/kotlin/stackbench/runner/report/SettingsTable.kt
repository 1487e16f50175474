package stackbench.runner.report

import stackbench.runner.results.CellResult
import stackbench.runner.results.DecisionRecord

/** A suite comparison's two sides in the report: a warning for each limit that bound a side, and the settings side by side ([SideBySide]). */
object SettingsTable {
    fun html(d: DecisionRecord, cells: List<CellResult>, e: (String?) -> String): String {
        val s = SideBySide.of(cells.filter { it.configKey == d.a }, cells.filter { it.configKey == d.b })
        if (s.settings.isEmpty()) return ""
        val warnings = s.binds(d.a, d.b).joinToString("") {
            "<p><span class=\"flag bad\">a limit binds</span> ${e(it)}: that limit, not only the strategy, sets this side's rate</p>"
        }
        val named = s.differing.take(4).joinToString(", ") { it.name } + if (s.differing.size > 4) ", …" else ""
        val summary = "Settings side by side: ${s.differing.size} of ${s.settings.size} differ" + if (named.isEmpty()) "" else " ($named)"
        val rows = s.settings.joinToString("") {
            "<tr${if (it.differs) " class=\"differs\"" else ""}><td>${e(it.name)}</td><td>${e(it.a)}</td><td>${e(it.b)}</td></tr>"
        }
        return "$warnings<details class=\"sides\"><summary>${e(summary)}</summary><div class=\"scroll\"><table><thead><tr><th>setting</th>" +
            "<th>a: ${e(d.a)}</th><th>b: ${e(d.b)}</th></tr></thead><tbody>$rows</tbody></table></div></details>"
    }
}
