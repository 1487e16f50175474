package stackbench.runner.history

import java.nio.file.Path

/**
 * Where the history lives, as a JDBC URL: the one given (`--history`), else the environment's
 * [ENVIRONMENT] variable, else a SQLite file [DEFAULT_FILE] in the project's results folder. A plain path is taken
 * as a SQLite file. Pure.
 */
object HistoryLocation {
    const val ENVIRONMENT = "STACKBENCH_HISTORY"
    const val DEFAULT_FILE = "history.sqlite"
    private const val SQLITE = "jdbc:sqlite:"

    fun url(given: String?, environment: Map<String, String>, results: Path): String {
        val chosen = given?.takeIf { it.isNotBlank() } ?: environment[ENVIRONMENT]?.takeIf { it.isNotBlank() }
            ?: return SQLITE + results.resolve(DEFAULT_FILE).toAbsolutePath().normalize()
        return if (chosen.startsWith("jdbc:")) chosen else SQLITE + Path.of(chosen).toAbsolutePath().normalize()
    }

    /** Whether a store was named ([given] or the environment), rather than the default file. */
    fun named(given: String?, environment: Map<String, String>): Boolean =
        !given.isNullOrBlank() || !environment[ENVIRONMENT].isNullOrBlank()

    /** The SQLite file of [url], or null when it is another database (or SQLite in memory). */
    fun sqliteFile(url: String): Path? {
        if (!url.startsWith(SQLITE)) return null
        val rest = url.removePrefix(SQLITE).substringBefore('?')
        return if (rest.isEmpty() || rest == ":memory:" || rest.startsWith("file::memory:")) null else Path.of(rest.removePrefix("file:"))
    }

    /** [url] fit to print: a password in it replaced. */
    fun shown(url: String): String = url.replace(Regex("(?i)(password=)[^&;]*"), "$1***").replace(Regex("//([^/:@]+):[^@/]*@"), "//$1:***@")
}
