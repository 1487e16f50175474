package stackbench.runner.suite

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
    fun render(): String = buildString {
        append("$file:$line:$column: $key: $message")
        if (sourceLine != null) {
            val gutter = line.toString().length
            append("\n  ${line} | $sourceLine")
            append("\n  ${" ".repeat(gutter)} | ${" ".repeat((column - 1).coerceAtLeast(0))}^")
        }
        if (hint != null) append("\n  hint: $hint")
    }
}

/** A suite that cannot run: every problem found, not just the first. */
class SuiteException(val problems: List<SuiteProblem>) :
    RuntimeException(problems.joinToString("\n") { it.render() })
