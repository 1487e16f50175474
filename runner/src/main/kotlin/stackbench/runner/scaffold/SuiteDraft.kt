package stackbench.runner.scaffold

/** How the suite's one app is started (or reached), as init found it. */
sealed interface AppDraft {
    /** A jar, its path as the suite names it (relative to the suite's folder), and how it takes its port. */
    data class Jar(val path: String, val facts: JarFacts, val args: List<String>, val jvmArgs: List<String>, val env: Map<String, String>) : AppDraft
    /** Any program, its argv as the suite names it (a path with a `/` relative to the suite's folder). */
    data class Command(val argv: List<String>, val env: Map<String, String>) : AppDraft
    /** A service already running: not started, placed or limited by the lab. */
    data class Url(val url: String) : AppDraft
}

/** Everything init writes into a suite; [render] is its text, in the own-app syntax of suites/own-app.yaml. */
data class SuiteDraft(
    val name: String,
    val invocation: String,
    val app: AppDraft,
    /** The readiness path and status (null: anything below 500), and how it was found. */
    val ready: Pair<String, Int?>,
    val readyWhy: String,
    val path: String,
    val check: CheckDraft,
    val processes: ProcessChoice,
    val machineCpus: Int,
    val notes: List<String> = emptyList(),
) {
    fun render(): String = buildString {
        fun line(s: String = "") = appendLine(s)
        fun comment(s: String, indent: String = "") = wrap(s, 116 - indent.length).forEach { line("$indent# $it") }
        comment("A suite for $name, written by `$invocation`; edit it freely. docs/own-app.md explains each key, docs/suite-format.md every one.")
        line("#   stackbench plan FILE       the cells and the estimated time")
        line("#   stackbench run FILE        the run, its results in results/$name-<UTC time>/")
        notes.forEach { comment(it) }
        line("name: $name")
        line("description: ${quote("$name, one endpoint, measured by the lab (written by stackbench init)")}")
        line()
        line("apps:")
        when (val a = app) {
            is AppDraft.Jar -> {
                val port = (a.jvmArgs + a.args).filter { "{port}" in it }.ifEmpty { null }?.joinToString(" ")
                    ?: a.env.entries.firstOrNull { "{port}" in it.value }?.let { "the environment variable ${it.key}" } ?: "nothing (no {port} anywhere)"
                val framework = if (a.facts.framework == Framework.UNKNOWN) "a jar of no framework init knows (${a.facts.evidence})"
                    else "a ${a.facts.framework.shown} jar (${a.facts.evidence})"
                val default = a.facts.framework.args + a.facts.framework.jvmArgs + a.facts.framework.env.map { "${it.key}=${it.value}" }
                val given = if ((a.jvmArgs + a.args).any { "{port}" in it } && (a.args + a.jvmArgs).none { it in default }) " (as init was told)" else ""
                comment("$framework: its port by $port$given", "  ")
                line("  - name: $name")
                line("    jar: ${scalar(a.path)}")
                if (a.jvmArgs.isNotEmpty()) line("    jvm-args: ${list(a.jvmArgs)}")
                if (a.args.isNotEmpty()) line("    args: ${list(a.args)}")
                if (a.env.isNotEmpty()) line("    env: ${map(a.env)}")
            }
            is AppDraft.Command -> {
                comment("any command: the lab isolates and samples it, and knows nothing of its runtime", "  ")
                line("  - name: $name")
                line("    command: ${list(a.argv)}")
                if (a.env.isNotEmpty()) line("    env: ${map(a.env)}")
            }
            is AppDraft.Url -> {
                comment("a service already running: not started, placed, limited or sampled by the lab (every cell flagged not-isolated)", "  ")
                line("  - name: $name")
                line("    url: ${scalar(a.url)}")
            }
        }
        comment(readyWhy, "    ")
        val (readyPath, readyStatus) = ready
        // `{path, timeout}` without a status means 200: anything below 500 on / is the lab's default, written as no ready: at all
        if (readyStatus == null) comment("no health path answered 2xx: the lab's default readiness, GET / answering anything below 500 (within 120 s)", "    ")
        else line("    ready: {path: ${scalar(readyPath)}, status: $readyStatus, timeout: ${if (app is AppDraft.Url) "10s" else "60s"}}")
        line()
        line("profile:")
        line("  cpus: none")
        if (app !is AppDraft.Url) {
            if (machineCpus >= 2) {
                comment("the app on CPU 1, the load generator on the others", "  ")
                line("  cpuset: [1]")
            }
            line("  memory: 1GiB")
            if (app is AppDraft.Jar) line("  heap: 75%")
        }
        line()
        line("endpoints:")
        comment(check.why, "  ")
        line("  - kind: http")
        line("    name: ${endpointName(path)}")
        line("    path: ${scalar(path)}")
        if (check.status != 200) line("    status: ${check.status}")
        when (val c = check.check) {
            is BodyCheck.Json -> line("    check: {json: ${scalar(c.pointer)}, equals: ${quote(c.equals)}}")
            is BodyCheck.Contains -> line("    check: {contains: ${quote(c.text)}}")
            null -> Unit
        }
        line()
        line("load:")
        line("  driver: wrk")
        line("  model: closed")
        line("  connections: [10]")
        line("  warmup: 5s")
        comment("until the JIT is quiet and throughput has no trend, at most this long", "  ")
        line("  warmup-max: 60s")
        line("  duration: 10s")
        line("  timeout: 10s")
        line()
        processes.comment.forEach { comment(it) }
        line("processes: ${processes.processes}")
        line("repetitions: 1")
        line("restart: app")
    }

    companion object {
        private val PLAIN = Regex("""[A-Za-z0-9_./:@+=-][A-Za-z0-9_./:@+=?&%,-]*""")

        /** A YAML scalar: as it is when it is plain text a reader cannot mistake, else double-quoted. */
        fun scalar(s: String): String = if (PLAIN.matches(s) && s.lowercase() !in setOf("true", "false", "null", "yes", "no", "on", "off", "~")) s else quote(s)

        fun quote(s: String): String = "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""

        private fun list(items: List<String>) = items.joinToString(", ", "[", "]") { if ('{' in it || ',' in it) quote(it) else scalar(it) }

        private fun map(m: Map<String, String>) = m.entries.joinToString(", ", "{", "}") { (k, v) -> "$k: ${quote(v)}" }

        /** An endpoint's name from its path (letters, digits and '_'): `/orders/1?full=true` is `orders_1_full_true`, `/` is `root`. */
        fun endpointName(path: String): String =
            path.split(Regex("[^A-Za-z0-9]+")).filter { it.isNotEmpty() }.joinToString("_").take(40).trim('_').ifEmpty { "root" }

        private fun wrap(text: String, width: Int): List<String> {
            val lines = mutableListOf<String>()
            var current = StringBuilder()
            for (word in text.split(' ')) {
                if (current.isNotEmpty() && current.length + 1 + word.length > width) { lines += current.toString(); current = StringBuilder() }
                if (current.isNotEmpty()) current.append(' ')
                current.append(word)
            }
            if (current.isNotEmpty()) lines += current.toString()
            return lines
        }
    }
}
