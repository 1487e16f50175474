package stackbench.runner.findings

import stackbench.runner.results.RunResult

/** Brings a findings document's tables and verdicts up to date with the runs; pure, so tests run it on fixtures. */
object FindingsUpdate {
    data class Outcome(
        val text: String,
        /** Keys of the markers whose text changed: `table:ID`, `verdict:ID`, `verdicts`. */
        val changed: List<String>,
        /** What keeps the document from being filled: missing runs or cells, generated text without a place, places without generated text. */
        val problems: List<String>,
        /** Verdicts typed by hand outside the generated markers (the text is still filled; the words need rewording). */
        val typed: List<String> = emptyList(),
        /** Every claim's computed verdict, in claims.yaml's order. */
        val verdicts: List<ClaimResult> = emptyList(),
        /** The forest plot's lines, for the caller to draw ([Forest.page]). */
        val forest: List<Forest.Line> = emptyList(),
        /** Figures in the document's own words that nothing it cites accounts for ([ProseFigures]). */
        val unchecked: List<ProseFigures.Unchecked> = emptyList(),
    )

    /** The runs [claims] name, for the caller to load. */
    fun runNames(claims: Claims): List<String> =
        claims.comparisons.flatMap { c -> c.rows.flatMap { listOfNotNull(it.a.run, it.b?.run) } }.distinct()

    /**
     * [claimsText]: claims.yaml as written, whose published figures the prose may quote. A row is fixed before the run that
     * measures it, so two kinds of missing cells wait for a run rather than fail: a run in [pending] (a suite, no published
     * results yet), and a side whose run's suite plans it although the published run has no such cell ([planned]: a row
     * added before the run's re-run). Their rows cannot tell, "not run yet"; any other missing run or cell is a problem.
     */
    fun update(
        claims: Claims, runs: Map<String, RunResult>, doc: String, claimsText: String = "", pending: Set<String> = emptySet(),
        planned: (Selector) -> Boolean = { false },
    ): Outcome {
        val tables = ClaimTables(runs, claims)
        val problems = mutableListOf<String>()
        runNames(claims).filter { it !in runs && it !in pending }.forEach { problems += "no run '$it' was given" }
        for (c in claims.comparisons) {
            tables.unmatched(c).filter { it.run in runs && !planned(it) }.forEach { problems += "table ${c.id}: no cell matches ${it.describe()}" }
        }
        val verdicts = Verdicts(runs, claims)
        val results = verdicts.claims(claims)
        val blocks = linkedMapOf<String, String>()
        claims.comparisons.forEach { blocks[FindingsDoc.table(it.id)] = tables.render(it) }
        results.forEach { blocks[FindingsDoc.verdict(it.claim.id)] = VerdictText.sentence(it) }
        if (claims.claims.isNotEmpty()) blocks[FindingsDoc.VERDICTS] = VerdictText.glance(results)
        val forest = Forest.lines(results)
        if (claims.articles.isNotEmpty()) blocks[FindingsDoc.ARTICLES] = VerdictText.articles(claims.articles, results, runs)
        // the plot is the document's own choice: filled where it has the marker
        if (forest.isNotEmpty() && FindingsDoc.section(doc, FindingsDoc.FOREST) != null) blocks[FindingsDoc.FOREST] = Forest.block(forest, FindingsDoc.FOREST_IMAGE)
        if (FindingsDoc.section(doc, FindingsDoc.MULTIPLICITY) != null) {
            val alone = claims.comparisons.flatMap { verdicts.rows(it) }.filter { it.row.claimId == null && it.verdict != null }
            blocks[FindingsDoc.MULTIPLICITY] = VerdictText.multiplicity(results, alone)
        }
        // the runs' provenance, where the document has the marker: the runs the claims read
        if (FindingsDoc.section(doc, FindingsDoc.PROVENANCE) != null) blocks[FindingsDoc.PROVENANCE] = Provenance.block(runs.filterKeys { it in runNames(claims) })
        val spliced = FindingsDoc.splice(doc, blocks)
        spliced.unknown.forEach { key ->
            problems += "the document has <!-- $key --> but docs/claims.yaml has no " + when {
                key.startsWith("table:") -> "comparison '${key.removePrefix("table:")}'"
                key.startsWith("verdict:") -> "claim '${key.removePrefix("verdict:")}'"
                else -> "claims"
            }
        }
        spliced.unplaced.forEach { key ->
            problems += when {
                key.startsWith("table:") -> "comparison '${key.removePrefix("table:")}' has no place in the document: add <!-- $key --><!-- /$key -->"
                key.startsWith("verdict:") -> "claim '${key.removePrefix("verdict:")}' has no verdict in the document: add <!-- $key --><!-- /$key -->"
                key == FindingsDoc.FOREST -> "the document has no forest plot: add <!-- $key --><!-- /$key -->"
                key == FindingsDoc.ARTICLES -> "claims.yaml lists articles but the document has no place for their lines: add <!-- $key --><!-- /$key -->"
                else -> "the document has no glance table of the verdicts: add <!-- $key --><!-- /$key -->"
            }
        }
        val typed = FindingsDoc.typedVerdicts(doc).map { "a verdict typed by hand outside the generated markers, $it" }
        val changed = spliced.filled.filter { key -> FindingsDoc.section(doc, key) != FindingsDoc.section(spliced.text, key) }
        return Outcome(spliced.text, changed, problems, typed, results, forest, ProseFigures.check(spliced.text, runs, claimsText))
    }
}
