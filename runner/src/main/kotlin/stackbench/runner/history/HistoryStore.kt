package stackbench.runner.history

import org.flywaydb.core.Flyway
import org.flywaydb.core.api.FlywayException
import stackbench.runner.results.RunResult
import java.nio.file.Files
import java.nio.file.Path
import java.sql.Connection
import java.sql.DriverManager
import java.sql.PreparedStatement
import java.sql.ResultSet
import java.sql.SQLException
import java.sql.Types
import java.time.Instant

/**
 * The run history: an index of runs' results.json files in a SQL database, SQLite (a file) or PostgreSQL (a team's
 * server), given as a JDBC URL ([HistoryLocation]). Its schema is migrated by Flyway from the scripts in
 * `stackbench/history/migration` on opening, the same scripts for both. Everything in it can be rebuilt from the
 * results folders ([HistoryRebuild]).
 */
class HistoryStore private constructor(val url: String, private val connection: Connection) : AutoCloseable {

    /** Adds [result] (read from [folder]) to the history, replacing an earlier record of the same run id. */
    fun index(result: RunResult, folder: Path) {
        val run = HistoryRecords.run(result, folder.toAbsolutePath().normalize().toString())
        val cells = HistoryRecords.cells(result)
        transaction {
            delete(run.id)
            connection.prepareStatement(
                "INSERT INTO runs (id, suite, started_at, finished_at, status, host, git_commit, git_dirty, runner_jdk, app_jdk, kernel, boot, scale, folder, indexed_at) " +
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ).use { s ->
                s.bind(run.id, run.suite, run.startedAt, run.finishedAt, run.status, run.host, run.gitCommit, run.gitDirty?.let { if (it) 1 else 0 },
                    run.runnerJdk, run.appJdk, run.kernel, run.boot, run.scale, run.folder, Instant.now().toString())
                s.executeUpdate()
            }
            connection.prepareStatement(
                "INSERT INTO cells (run_id, config_key, app, endpoint, load_label, windows, processes, throughput, throughput_low, throughput_high, p99, p99_low, p99_high) " +
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ).use { s ->
                for (c in cells) {
                    s.bind(c.runId, c.configKey, c.app, c.endpoint, c.load, c.windows, c.processes, c.throughput, c.throughputLow, c.throughputHigh, c.p99, c.p99Low, c.p99High)
                    s.addBatch()
                }
                s.executeBatch()
            }
        }
    }

    /** Removes every run (before a rebuild). */
    fun clear() = transaction {
        connection.createStatement().use { it.executeUpdate("DELETE FROM cells"); it.executeUpdate("DELETE FROM runs") }
    }

    /** The runs of [suite] (every suite when null), oldest first. */
    fun runs(suite: String? = null): List<RunRow> =
        if (suite == null) query("SELECT * FROM runs ORDER BY started_at, id") { runRow(it) }
        else query("SELECT * FROM runs WHERE suite = ? ORDER BY started_at, id", suite) { runRow(it) }

    fun run(id: String): RunRow? = query("SELECT * FROM runs WHERE id = ?", id) { runRow(it) }.firstOrNull()

    /** The latest run of [suite] on [host] that started before [before], other than [except]; null when there is none. */
    fun latest(suite: String, host: String, before: String, except: String): RunRow? =
        query("SELECT * FROM runs WHERE suite = ? AND host = ? AND started_at < ? AND id <> ? ORDER BY started_at DESC, id DESC", suite, host, before, except) { runRow(it) }
            .firstOrNull()

    /** The latest run of [suite] on [host]. */
    fun latest(suite: String, host: String): RunRow? =
        query("SELECT * FROM runs WHERE suite = ? AND host = ? ORDER BY started_at DESC, id DESC", suite, host) { runRow(it) }.firstOrNull()

    /** The latest run on [host], any suite. */
    fun latestOn(host: String): RunRow? =
        query("SELECT * FROM runs WHERE host = ? ORDER BY started_at DESC, id DESC", host) { runRow(it) }.firstOrNull()

    /** The cells of the runs of [suite], in run order; only [keys] when not empty. */
    fun cells(suite: String, keys: List<String> = emptyList()): List<CellRow> =
        query("SELECT c.* FROM cells c JOIN runs r ON r.id = c.run_id WHERE r.suite = ? ORDER BY r.started_at, r.id, c.config_key", suite) { cellRow(it) }
            .filter { keys.isEmpty() || it.configKey in keys }

    override fun close() = connection.close()

    private fun delete(id: String) {
        connection.prepareStatement("DELETE FROM cells WHERE run_id = ?").use { it.bind(id); it.executeUpdate() }
        connection.prepareStatement("DELETE FROM runs WHERE id = ?").use { it.bind(id); it.executeUpdate() }
    }

    private fun <T> transaction(block: () -> T): T {
        connection.autoCommit = false
        try {
            return block().also { connection.commit() }
        } catch (e: Throwable) {
            connection.rollback()
            throw e
        } finally {
            connection.autoCommit = true
        }
    }

    private fun <T> query(sql: String, vararg args: Any?, row: (ResultSet) -> T): List<T> =
        connection.prepareStatement(sql).use { s ->
            s.bind(*args)
            s.executeQuery().use { rs -> buildList { while (rs.next()) add(row(rs)) } }
        }

    private fun PreparedStatement.bind(vararg args: Any?) = args.forEachIndexed { i, v ->
        when (v) {
            null -> setNull(i + 1, Types.NULL)
            is String -> setString(i + 1, v)
            is Int -> setInt(i + 1, v)
            is Double -> setDouble(i + 1, v)
            else -> throw IllegalArgumentException("no binding for ${v.javaClass}")
        }
    }

    private fun runRow(rs: ResultSet) = RunRow(
        id = rs.getString("id"), suite = rs.getString("suite"), startedAt = rs.getString("started_at"), finishedAt = rs.getString("finished_at"),
        status = rs.getString("status"), host = rs.getString("host"), gitCommit = rs.getString("git_commit"),
        gitDirty = rs.getInt("git_dirty").let { if (rs.wasNull()) null else it != 0 }, runnerJdk = rs.getString("runner_jdk"),
        appJdk = rs.getString("app_jdk"), kernel = rs.getString("kernel"), boot = rs.getString("boot"), scale = rs.getDouble("scale"),
        folder = rs.getString("folder"),
    )

    private fun cellRow(rs: ResultSet): CellRow {
        fun d(column: String): Double? = rs.getDouble(column).let { if (rs.wasNull()) null else it }
        return CellRow(
            runId = rs.getString("run_id"), configKey = rs.getString("config_key"), app = rs.getString("app"), endpoint = rs.getString("endpoint"),
            load = rs.getString("load_label"), windows = rs.getInt("windows"), processes = rs.getInt("processes"),
            throughput = d("throughput"), throughputLow = d("throughput_low"), throughputHigh = d("throughput_high"),
            p99 = d("p99"), p99Low = d("p99_low"), p99High = d("p99_high"),
        )
    }

    companion object {
        const val MIGRATIONS = "classpath:stackbench/history/migration"

        /**
         * In PostgreSQL the history keeps to a schema of its own, so that it may share a team's database with other
         * tables (Flyway refuses to migrate a non-empty schema it did not make). SQLite has no schemas: a file is its own.
         */
        const val POSTGRES_SCHEMA = "stackbench_history"

        private fun postgres(url: String) = url.startsWith("jdbc:postgresql:")

        /**
         * Opens the history at the JDBC [url] and brings its schema up to date. Throws [HistoryException] saying
         * what failed (a server that does not answer, a file that cannot be made, a schema from a newer version).
         */
        fun open(url: String): HistoryStore {
            HistoryLocation.sqliteFile(url)?.toAbsolutePath()?.parent?.let { Files.createDirectories(it) }
            try {
                Flyway.configure(HistoryStore::class.java.classLoader).dataSource(url, null, null).locations(MIGRATIONS)
                    .apply { if (postgres(url)) schemas(POSTGRES_SCHEMA) }
                    .loggers("slf4j").load().migrate()
            } catch (e: FlywayException) {
                throw HistoryException("the history at ${HistoryLocation.shown(url)} could not be migrated: ${e.message?.lineSequence()?.firstOrNull { it.isNotBlank() }}", e)
            }
            val connection = try {
                DriverManager.getConnection(url).also { if (postgres(url)) it.schema = POSTGRES_SCHEMA }
            } catch (e: SQLException) {
                throw HistoryException("the history at ${HistoryLocation.shown(url)} could not be opened: ${e.message}", e)
            }
            return HistoryStore(url, connection)
        }
    }
}

/** The history could not be opened or read. */
class HistoryException(message: String, cause: Throwable? = null) : RuntimeException(message, cause)
