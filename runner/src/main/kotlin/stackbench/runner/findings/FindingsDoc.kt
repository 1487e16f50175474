package stackbench.runner.findings

/**
 * Puts generated text into a Markdown document between markers, leaving every other line (the words) as it
 * is. A marker is named by its key: `<!-- table:ID -->` and `<!-- verdicts -->` hold blocks (a table, on
 * lines of their own), `<!-- verdict:ID -->` holds one sentence in a line of prose; each closes with
 * `<!-- /KEY -->`.
 */
object FindingsDoc {
    /** A generated block's opening marker; its one group is the key ([ProseFigures] reads around them too). */
    val OPEN = Regex("<!-- ((?:table|verdict):[a-z0-9-]+|verdicts|forest|articles|provenance|multiplicity) -->")

    /** A marker's key for a comparison's table, a claim's verdict sentence, and the glance table. */
    fun table(id: String) = "table:$id"
    fun verdict(id: String) = "verdict:$id"
    const val VERDICTS = "verdicts"

    /** One line per article: what it said, what the lab measured, what to do ([VerdictText.articles]). */
    const val ARTICLES = "articles"

    /** How many verdicts may be false by chance, and how each claim's family is held ([VerdictText.multiplicity]). */
    const val MULTIPLICITY = "multiplicity"

    /** The forest plot's block: its image and its rows in words ([Forest]). */
    const val FOREST = "forest"

    /** The published runs' provenance: commit and tree of each ([Provenance]). */
    const val PROVENANCE = "provenance"

    /** The forest plot's image, beside the document. */
    const val FOREST_IMAGE = "findings-forest.png"

    data class Spliced(val text: String, val filled: List<String>, val unknown: List<String>, val unplaced: List<String>)

    fun splice(doc: String, blocks: Map<String, String>): Spliced {
        val out = StringBuilder()
        val filled = mutableListOf<String>()
        val unknown = mutableListOf<String>()
        var rest = doc
        while (true) {
            val open = OPEN.find(rest) ?: break
            val key = open.groupValues[1]
            val close = "<!-- /$key -->"
            val end = rest.indexOf(close, open.range.last + 1)
            require(end >= 0) { "<!-- $key --> has no closing $close" }
            out.append(rest, 0, open.range.last + 1)
            val content = blocks[key]
            if (content == null) {
                unknown += key
                out.append(rest, open.range.last + 1, end)
            } else {
                filled += key
                if (key.startsWith("verdict:")) out.append(content) else out.append("\n").append(content).append("\n")
            }
            out.append(close)
            rest = rest.substring(end + close.length)
        }
        out.append(rest)
        return Spliced(out.toString(), filled, unknown, blocks.keys.filter { it !in filled })
    }

    /** The text between a marker's opening and closing, or null when the document does not have it. */
    fun section(doc: String, key: String): String? {
        val open = "<!-- $key -->"
        val start = doc.indexOf(open).takeIf { it >= 0 } ?: return null
        val end = doc.indexOf("<!-- /$key -->", start)
        return if (end < 0) null else doc.substring(start + open.length, end)
    }

    private val GENERATED = Regex("<!-- ((?:table|verdict):[a-z0-9-]+|verdicts) -->.*?<!-- /\\1 -->", RegexOption.DOT_MATCHES_ALL)
    private val TYPED_VERDICT = Regex(
        "\\*\\*[^*\\n]*\\b(verdicts?|holds?|held|differs?|cannot tell|can ?not be told|does not hold|did not hold|no difference)\\b[^*\\n]*\\*\\*|^#+ .*\\b(hold|holds|held|differ|differs)\\b.*$",
        setOf(RegexOption.IGNORE_CASE, RegexOption.MULTILINE),
    )

    /**
     * Verdicts typed by hand outside the generated markers (a bold "holds", a "**Verdict:**", a heading
     * "Claims that did not hold"), each with its line number: the computed ones are the only verdicts the
     * page may give.
     */
    fun typedVerdicts(doc: String): List<String> {
        val blanked = GENERATED.replace(doc) { m -> m.value.replace(Regex("[^\\n]"), " ") }
        return TYPED_VERDICT.findAll(blanked).map { m ->
            val line = blanked.substring(0, m.range.first).count { it == '\n' } + 1
            "line $line: ${doc.substring(m.range).trim()}"
        }.toList()
    }
}
