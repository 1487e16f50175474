package stackbench.runner.findings

/**
 * Puts generated tables into a Markdown document between `<!-- table:ID -->` and `<!-- /table:ID -->`,
 * leaving every other line (the words) as it is.
 */
object FindingsDoc {
    private val OPEN = Regex("<!-- table:([a-z0-9-]+) -->")

    data class Spliced(val text: String, val filled: List<String>, val unknown: List<String>, val unplaced: List<String>)

    fun splice(doc: String, tables: Map<String, String>): Spliced {
        val out = StringBuilder()
        val filled = mutableListOf<String>()
        val unknown = mutableListOf<String>()
        var rest = doc
        while (true) {
            val open = OPEN.find(rest) ?: break
            val id = open.groupValues[1]
            val close = "<!-- /table:$id -->"
            val end = rest.indexOf(close, open.range.last + 1)
            require(end >= 0) { "<!-- table:$id --> has no closing $close" }
            out.append(rest, 0, open.range.last + 1)
            val table = tables[id]
            if (table == null) {
                unknown += id
                out.append(rest, open.range.last + 1, end)
            } else {
                filled += id
                out.append("\n").append(table).append("\n")
            }
            out.append(close)
            rest = rest.substring(end + close.length)
        }
        out.append(rest)
        return Spliced(out.toString(), filled, unknown, tables.keys.filter { it !in filled })
    }
}
