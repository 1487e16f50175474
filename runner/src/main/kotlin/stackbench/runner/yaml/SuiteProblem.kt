package stackbench.runner.yaml

/** One thing wrong with a suite, pointing at its source: file, line and column (1-based), and the key. */
data class SuiteProblem(
    val file: String,
    val line: Int,
    val column: Int,
    val key: String,
    val message: String,
    val hint: String? = null,
    /** The offending source line, to show under the message. */
    val sourceLine: String? = null,
) {
    private companion object {
        const val WIDTH = 160
    }

    fun render(): String = buildString {
        append("$file:$line:$column: $key: $message")
        if (sourceLine != null) {
            // a line of a hostile file may be megabytes long: show at most WIDTH characters around the column
            val at = (column - 1).coerceIn(0, sourceLine.length)
            val from = if (sourceLine.length <= WIDTH) 0 else (at - WIDTH / 2).coerceIn(0, sourceLine.length - WIDTH)
            val shown = sourceLine.substring(from, minOf(sourceLine.length, from + WIDTH))
                .map { if (it < ' ' && it != '\t') '?' else it }.joinToString("")
            val prefix = if (from > 0) "…" else ""
            val suffix = if (from + WIDTH < sourceLine.length) "…" else ""
            val gutter = line.toString().length
            append("\n  ${line} | $prefix$shown$suffix")
            append("\n  ${" ".repeat(gutter)} | ${" ".repeat(prefix.length + at - from)}^")
        }
        if (hint != null) append("\n  hint: $hint")
    }
}

/** A suite that cannot run: every problem found, not just the first. */
class SuiteException(val problems: List<SuiteProblem>) :
    RuntimeException(problems.joinToString("\n") { it.render() })
