package stackbench.contract

/**
 * One of the lab's built-in apps: a server stack on a Spring Boot line, its programming model, the jar its build makes,
 * and the pool of its `/info` that a blocking request holds while it waits, with platform threads ([pool], its units
 * [poolUnits]) and with virtual threads ([virtualPool], [virtualPoolUnits]); a null pool: none, a request has a thread of its own.
 */
data class BuiltinAppEntry(
    val id: String, val boot: String, val model: String, val server: String, val jar: String,
    val pool: String?, val poolUnits: String, val virtualPool: String?, val virtualPoolUnits: String,
)

/**
 * The built-in apps, read from `stackbench/builtin-apps.tsv`, the one list of them: the runner's catalog, the apps'
 * contract tests and the launcher read the same file, so a new stack is one line there (and its module).
 */
object BuiltinApps {
    const val RESOURCE = "/stackbench/builtin-apps.tsv"

    /** The columns of a line, in order. */
    val FIELDS = listOf("id", "boot", "model", "server", "jar", "pool", "pool units", "virtual pool", "virtual pool units")

    val ALL: List<BuiltinAppEntry> by lazy {
        val text = BuiltinApps::class.java.getResource(RESOURCE)?.readText() ?: error("$RESOURCE is missing from the contract jar")
        parse(text)
    }

    fun parse(text: String): List<BuiltinAppEntry> = text.lines().withIndex()
        .filter { (_, line) -> line.isNotBlank() && !line.startsWith("#") }
        .map { (i, line) ->
            val f = line.split('\t')
            require(f.size == FIELDS.size) { "$RESOURCE:${i + 1}: expected ${FIELDS.size} tab-separated fields (${FIELDS.joinToString()}), got ${f.size}: $line" }
            fun pool(s: String) = s.takeUnless { it == "-" }
            BuiltinAppEntry(f[0], f[1], f[2], f[3], f[4], pool(f[5]), f[6], pool(f[7]), f[8])
        }
}
