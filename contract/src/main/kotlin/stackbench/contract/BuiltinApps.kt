package stackbench.contract

/** One of the lab's built-in apps: a server stack on a Spring Boot line, its programming model, and the jar its build makes. */
data class BuiltinAppEntry(val id: String, val boot: String, val model: String, val server: String, val jar: String)

/**
 * The built-in apps, read from `stackbench/builtin-apps.tsv`, the one list of them: the runner's catalog, the apps'
 * contract tests and the launcher read the same file, so a new stack is one line there (and its module).
 */
object BuiltinApps {
    const val RESOURCE = "/stackbench/builtin-apps.tsv"

    val ALL: List<BuiltinAppEntry> by lazy {
        val text = BuiltinApps::class.java.getResource(RESOURCE)?.readText() ?: error("$RESOURCE is missing from the contract jar")
        parse(text)
    }

    fun parse(text: String): List<BuiltinAppEntry> = text.lines().withIndex()
        .filter { (_, line) -> line.isNotBlank() && !line.startsWith("#") }
        .map { (i, line) ->
            val f = line.split('\t')
            require(f.size == 5) { "$RESOURCE:${i + 1}: expected 5 tab-separated fields (id, boot, model, server, jar), got ${f.size}: $line" }
            BuiltinAppEntry(f[0], f[1], f[2], f[3], f[4])
        }
}
