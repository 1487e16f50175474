package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.multiple
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.history.HistoryException
import stackbench.runner.history.HistoryHtml
import stackbench.runner.history.HistoryLocation
import stackbench.runner.history.HistoryRebuild
import stackbench.runner.history.HistoryStore
import stackbench.runner.history.HistoryText
import stackbench.runner.history.HistoryViews
import stackbench.runner.results.AtomicFiles
import java.nio.file.Files
import java.nio.file.Path

class HistoryCommand : CliktCommand(name = "history") {
    override fun help(context: Context) = """
        The run history: every finished run is indexed when it ends (in results/${HistoryLocation.DEFAULT_FILE}, or the
        database --history or ${HistoryLocation.ENVIRONMENT} names). Lists the runs of SUITE (id, start, commit, JDK,
        Spring Boot) and, per configuration (all, or the CELL-KEYs given), throughput and p99 over the runs with their
        intervals, what changed between consecutive runs (commit, JDK, Boot, kernel), and the change points of each
        series; writes the same as an HTML page with charts. With --rebuild, empties the history and indexes every run
        found under DIRS (default: results/) instead.
    """.trimIndent()

    private val args by argument("ARGS", help = "SUITE [CELL-KEY...]: a suite's name and configuration keys; with --rebuild, DIRS: the folders to index").multiple()
    private val history by option("--history", metavar = "URL",
        help = "the history's JDBC URL (jdbc:sqlite:FILE, jdbc:postgresql://host/db?user=...) or a SQLite file; default: \$${HistoryLocation.ENVIRONMENT}, else results/${HistoryLocation.DEFAULT_FILE}")
    private val rebuild by option("--rebuild", help = "empty the history and index every run under DIRS (default: results/)").flag()
    private val html by option("--html", metavar = "FILE", help = "where to write the page (default: results/history-SUITE.html)").path(canBeDir = false)

    override fun run() {
        val url = HistoryLocation.url(history, System.getenv(), Home.results)
        try {
            HistoryStore.open(url).use { store -> if (rebuild) rebuild(store, url) else show(store, url) }
        } catch (e: HistoryException) {
            throw BadInput(e.message ?: "the history could not be read")
        } catch (e: java.sql.SQLException) {
            throw BadInput("the history at ${HistoryLocation.shown(url)} could not be read: ${e.message}")
        }
    }

    private fun rebuild(store: HistoryStore, url: String) {
        val dirs = args.map { Path.of(it) }.ifEmpty { listOf(Home.results) }
        dirs.firstOrNull { !Files.isDirectory(it) }?.let { throw BadInput("--rebuild: $it is not a folder") }
        val outcome = HistoryRebuild.rebuild(store, dirs)
        outcome.skipped.forEach { println("skipped $it") }
        println("history: ${outcome.indexed.size} run(s) indexed from ${dirs.joinToString()} into ${HistoryLocation.shown(url)}")
    }

    private fun show(store: HistoryStore, url: String) {
        val suite = args.firstOrNull()
        val keys = args.drop(1)
        val runs = store.runs(suite)
        if (suite != null && runs.isEmpty()) {
            val known = store.runs().map { it.suite }.distinct()
            throw BadInput("the history has no run of suite '$suite' (${if (known.isEmpty()) "it has none at all" else "its suites: ${known.joinToString()}"}); " +
                "./stackbench history --rebuild indexes the runs under results/")
        }
        val cells = suite?.let { store.cells(it, keys) }.orEmpty()
        val unknown = keys.filter { k -> cells.none { it.configKey == k } }
        if (unknown.isNotEmpty()) throw BadInput("no configuration ${unknown.joinToString()} in the history of '$suite' " +
            "(its configurations: ${store.cells(suite!!).map { it.configKey }.distinct().joinToString()})")
        val view = HistoryViews.of(suite, runs, cells, keys)
        println("history: ${HistoryLocation.shown(url)}")
        print(HistoryText.render(view))
        if (suite == null) {
            if (runs.isNotEmpty()) println("\nname a suite for its configurations' figures over the runs: ./stackbench history SUITE")
            return
        }
        val page = html ?: Home.results.resolve("history-${stackbench.runner.report.Html.slug(suite)}.html")
        page.toAbsolutePath().parent?.let { Files.createDirectories(it) }
        AtomicFiles.write(page, HistoryHtml.render(view))
        println()
        println("page: $page")
    }
}
