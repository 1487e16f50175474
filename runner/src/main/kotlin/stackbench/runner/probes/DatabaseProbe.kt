package stackbench.runner.probes

import java.sql.Connection
import stackbench.runner.database.ActivitySample
import stackbench.runner.database.RunningDatabase
import stackbench.runner.database.StatementCounter
import stackbench.runner.database.StatementCounts
import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.results.ProbeRecord
import tools.jackson.databind.ObjectMapper

/**
 * The run's database in every measured window (`probes.database`): its processes' CPU time (/proc), the apps'
 * connections and how many of them were running a query (`pg_stat_activity`, sampled every [SAMPLE_MS] ms), and the
 * queries' own time (`pg_stat_statements`, its counters differenced at the window's edges, [StatementCounts]). The lab's
 * own connection is left out of all three.
 */
class DatabaseProbe(private val db: RunningDatabase, private val json: ObjectMapper) : WindowProbe {
    override val name = NAME

    /** A run with a database (a suite's `database:`) has it. */
    object Kind : ProbeKind {
        override fun probes(run: ProbeContext) = listOfNotNull(run.database?.let { DatabaseProbe(it, run.json) })
    }

    private var connection: Connection? = null
    private var startCpuMs = 0.0
    private var startNanos = 0L
    private var startStatements: List<StatementCounter> = emptyList()
    private var sampler: ActivitySampler? = null

    override fun unavailable(target: ProbeTarget): String? = if (!db.child.isAlive()) "the database is not running" else null

    override fun windowStarted(target: ProbeTarget) {
        close()
        val c = db.superuser(db.endpoint.name).also { connection = it }
        startStatements = statements(c)
        startCpuMs = db.cpuMs()
        startNanos = System.nanoTime()
        sampler = ActivitySampler(db).also { it.start() }
    }

    override fun windowEnded(target: ProbeTarget, window: WindowFacts): ProbeRecord {
        val c = connection ?: return ProbeRecord(notes = listOf("the probe did not start"))
        try {
            val cpuMs = db.cpuMs() - startCpuMs
            val wallMs = (System.nanoTime() - startNanos) / 1e6
            val activity = sampler?.finish() ?: ActivitySample.NONE
            val statements = StatementCounts.difference(startStatements, statements(c))
            val perRequest = { v: Double -> if (window.responses > 0) v / window.responses else null }
            return ProbeRecord(
                figures = mapOf(
                    "cpuMs" to cpuMs,
                    "cpus" to if (wallMs > 0) cpuMs / wallMs else null,
                    "cpuMsPerRequest" to perRequest(cpuMs),
                    "connectionsMean" to activity.connectionsMean,
                    "connectionsMax" to activity.connectionsMax?.toDouble(),
                    "activeMean" to activity.activeMean,
                    "activeMax" to activity.activeMax?.toDouble(),
                    "samples" to activity.samples.toDouble(),
                    "calls" to statements.calls.toDouble(),
                    "execMs" to statements.execMs,
                    "meanExecMs" to statements.meanExecMs,
                    "callsPerRequest" to perRequest(statements.calls.toDouble()),
                ),
                details = json.valueToTree(mapOf("cpuSource" to db.cpuSource, "statements" to statements.statements.take(TOP).map {
                    mapOf("query" to it.query.take(300), "calls" to it.calls, "execMs" to it.totalExecMs, "meanExecMs" to it.totalExecMs / it.calls)
                })),
            )
        } finally {
            close()
        }
    }

    private fun close() {
        sampler?.finish()
        sampler = null
        connection?.let { runCatching { it.close() } }
        connection = null
    }

    /** pg_stat_statements' counters for the apps' role: the lab's superuser sessions are another role, so they are not counted. */
    private fun statements(c: Connection): List<StatementCounter> = c.prepareStatement(
        "SELECT s.userid::text || '/' || s.dbid::text || '/' || s.queryid::text, s.query, s.calls, s.total_exec_time " +
            "FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid WHERE r.rolname = ?",
    ).use { ps ->
        ps.setString(1, db.endpoint.user)
        ps.executeQuery().use { rs ->
            buildList { while (rs.next()) add(StatementCounter(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getDouble(4))) }
        }
    }

    companion object {
        const val NAME = "database"
        const val SAMPLE_MS = 200L
        /** How many statements the record details, by execution time. */
        const val TOP = 10
    }
}

/** Reads pg_stat_activity every [DatabaseProbe.SAMPLE_MS] ms on a thread of its own, over its own connection, until [finish]. */
private class ActivitySampler(private val db: RunningDatabase) {
    private val readings = java.util.Collections.synchronizedList(mutableListOf<Pair<Int, Int>>())
    @Volatile private var running = true
    private val thread = Thread({ loop() }, "stackbench-database-activity").apply { isDaemon = true }

    fun start() = thread.start()

    private fun loop() {
        runCatching {
            db.superuser(db.endpoint.name).use { c ->
                c.prepareStatement(
                    "SELECT count(*), count(*) FILTER (WHERE state = 'active') FROM pg_stat_activity " +
                        "WHERE backend_type = 'client backend' AND usename = ? AND pid <> pg_backend_pid()",
                ).use { ps ->
                    ps.setString(1, db.endpoint.user)
                    while (running) {
                        ps.executeQuery().use { rs -> if (rs.next()) readings += rs.getInt(1) to rs.getInt(2) }
                        Thread.sleep(DatabaseProbe.SAMPLE_MS)
                    }
                }
            }
        }
    }

    fun finish(): ActivitySample {
        running = false
        thread.interrupt()
        runCatching { thread.join(2000) }
        return ActivitySample.of(synchronized(readings) { readings.toList() })
    }
}
