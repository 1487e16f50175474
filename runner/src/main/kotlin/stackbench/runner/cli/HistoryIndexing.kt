package stackbench.runner.cli

import stackbench.runner.history.HistoryLocation
import stackbench.runner.history.HistoryStore
import stackbench.runner.results.ResultsStore
import java.io.PrintStream
import java.nio.file.Path

/**
 * A finished run added to the history as `run` ends: its results.json as written, read back, into the history
 * [given] names (`run --history`), else [HistoryLocation.ENVIRONMENT]'s, else results' SQLite file. A run written
 * outside the project's results folder (a test's temporary folder) is indexed only when a history is named.
 * Nothing here may lose or fail the run: a failure is a warning.
 */
object HistoryIndexing {
    fun index(dir: Path, console: PrintStream, environment: Map<String, String> = System.getenv(), given: String? = null) {
        val inResults = dir.toAbsolutePath().normalize().startsWith(Home.results.toAbsolutePath().normalize())
        if (!inResults && !HistoryLocation.named(given, environment)) return
        val url = HistoryLocation.url(given, environment, Home.results)
        runCatching {
            HistoryStore.open(url).use { it.index(ResultsStore.read(dir), dir) }
        }.onSuccess { console.println("history: indexed in ${HistoryLocation.shown(url)}") }
            .onFailure { console.println("stackbench: warning: the run was not added to the history at ${HistoryLocation.shown(url)} (${said(it, "indexing failed")}); " +
                "its results are kept; ./stackbench history --rebuild adds it later") }
    }
}
