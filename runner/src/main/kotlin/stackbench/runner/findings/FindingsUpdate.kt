package stackbench.runner.findings

import stackbench.runner.results.RunResult

/** Brings a findings document's tables up to date with the runs; pure, so tests run it on fixtures. */
object FindingsUpdate {
    data class Outcome(
        val text: String,
        /** Ids of the tables whose text changed. */
        val changed: List<String>,
        /** What keeps the document from being right: missing runs or cells, tables without a place, places without a table. */
        val problems: List<String>,
    )

    /** The runs [claims] name, for the caller to load. */
    fun runNames(claims: Claims): List<String> =
        claims.comparisons.flatMap { c -> c.rows.flatMap { listOfNotNull(it.a.run, it.b?.run) } }.distinct()

    fun update(claims: Claims, runs: Map<String, RunResult>, doc: String): Outcome {
        val tables = ClaimTables(runs)
        val problems = mutableListOf<String>()
        runNames(claims).filter { it !in runs }.forEach { problems += "no run '$it' was given" }
        for (c in claims.comparisons) {
            tables.unmatched(c).filter { it.run in runs }.forEach { problems += "table ${c.id}: no cell matches ${it.describe()}" }
        }
        val rendered = claims.comparisons.associate { it.id to tables.render(it) }
        val spliced = FindingsDoc.splice(doc, rendered)
        spliced.unknown.forEach { problems += "the document has <!-- table:$it --> but docs/claims.yaml has no comparison '$it'" }
        spliced.unplaced.forEach { problems += "comparison '$it' has no place in the document: add <!-- table:$it --><!-- /table:$it -->" }
        val changed = spliced.filled.filter { id -> section(doc, id) != section(spliced.text, id) }
        return Outcome(spliced.text, changed, problems)
    }

    private fun section(doc: String, id: String): String? {
        val open = "<!-- table:$id -->"
        val start = doc.indexOf(open).takeIf { it >= 0 } ?: return null
        val end = doc.indexOf("<!-- /table:$id -->", start)
        return if (end < 0) null else doc.substring(start, end)
    }
}
