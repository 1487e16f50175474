package stackbench.runner.findings

import stackbench.runner.decide.SuiteDecisions
import stackbench.runner.report.MarkdownSummary
import stackbench.runner.report.MarkdownSummary.md
import stackbench.runner.results.RunResult

/**
 * A published run's summary.md as the engine writes it today, so that the summary beside a run and docs/findings.md
 * cannot disagree: the run's own comparisons decided again from its cells under today's rules, each at the look it
 * recorded ([SuiteDecisions.again]: a summary written at the end of a run under older rules said what those rules
 * decided), then every table of docs/findings.md that reads the run, rendered by the same [ClaimTables] that fills
 * the document. `./stackbench findings` writes them; `findings --check` fails on one that differs. Pure.
 */
object RunSummaries {
    /** [run]'s summary: its own summary with its comparisons decided again, then the claims' tables that read it. */
    fun render(run: String, result: RunResult, claims: Claims, tables: ClaimTables): String {
        // a run that repeated rounds before looks were recorded is read at look k of k, as findings reads its rows
        val own = MarkdownSummary.render(result.copy(decisions = SuiteDecisions.again(result) { c ->
            Verdicts.unscheduledLook(result, result.cells.filter { it.configKey == c.a || it.configKey == c.b }) ?: stackbench.runner.stats.Look.SINGLE
        }))
        val reading = claims.comparisons.filter { c -> c.rows.any { it.a.run == run || it.b?.run == run } }
        if (reading.isEmpty()) return own
        return buildString {
            append(own.trimEnd())
            appendLine()
            appendLine()
            appendLine("**In docs/findings.md**: the claims' tables that read this run, as `./stackbench findings` fills them there" +
                if (result.decisions.isEmpty()) "" else " (each comparison above is decided at its own look's confidence; there the rows " +
                    "of one claim share it, Holm's step-down, and a cell flagged for the figure a table reads is left out, so a comparison decided above may read *cannot tell* there)")
            for (c in reading) {
                appendLine()
                appendLine("#### ${md(c.id)}")
                appendLine()
                appendLine(tables.render(c))
            }
        }
    }

    /**
     * The runs of [runs] whose summary as [written] reads it (null: none written) is not what [render] gives, each
     * with the text it should have, in [runs]'s order.
     */
    fun stale(claims: Claims, runs: Map<String, RunResult>, written: (String) -> String?): Map<String, String> {
        val tables = ClaimTables(runs, claims)
        return runs.entries.associate { (name, result) -> name to render(name, result, claims, tables) }
            .filter { (name, text) -> written(name) != text }
    }
}
