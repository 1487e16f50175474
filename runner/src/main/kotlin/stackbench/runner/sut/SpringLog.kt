package stackbench.runner.sut

/** Spring Boot's own startup figure, read from the app's log. */
object SpringLog {
    private val STARTED = Regex("""Started \S+ in ([0-9.]+) seconds \(process running for ([0-9.]+)\)""")

    data class Started(val seconds: Double, val processRunningSeconds: Double)

    fun started(lines: List<String>): Started? = lines.firstNotNullOfOrNull { line ->
        STARTED.find(line)?.let { Started(it.groupValues[1].toDouble(), it.groupValues[2].toDouble()) }
    }
}
