package stackbench.runner.history

import stackbench.runner.results.CellResult
import stackbench.runner.decide.Counting
import stackbench.runner.decide.Figure
import stackbench.runner.results.Processes
import stackbench.runner.results.RunResult
import stackbench.runner.stats.PairedRatio
import kotlin.math.ln

/** A run as the history keeps it: what ran, when, on what, and where its results.json lies. */
data class RunRow(
    val id: String,
    val suite: String,
    val startedAt: String,
    val finishedAt: String?,
    val status: String,
    val host: String,
    val gitCommit: String?,
    val gitDirty: Boolean?,
    val runnerJdk: String?,
    val appJdk: String?,
    val kernel: String?,
    /** The Spring Boot versions the run's apps reported, e.g. `3.5.8, 4.1.0`. */
    val boot: String?,
    val scale: Double,
    /** The run's folder (absolute) when it was indexed. */
    val folder: String,
)

/**
 * One configuration of a run, as the history keeps it: its throughput and p99 over the windows that count for each
 * (finished OK, no disqualifying flag, as the suite's decisions count them: a throughput at its Little's-law ceiling
 * counts though flagged for the JIT or a slow host; [windows] and [processes] are the throughput's; the one counting rule,
 * [Counting]), each the geometric mean over the app processes' means, with the t interval of that mean on the log scale
 * when the run had 2 processes or more (the process as the unit, as every decision takes it).
 */
data class CellRow(
    val runId: String,
    val configKey: String,
    val app: String,
    val endpoint: String,
    val load: String,
    val windows: Int,
    val processes: Int,
    val throughput: Double?,
    val throughputLow: Double?,
    val throughputHigh: Double?,
    val p99: Double?,
    val p99Low: Double?,
    val p99High: Double?,
)

/** What the history records of a run's record. Pure. */
object HistoryRecords {
    fun run(result: RunResult, folder: String): RunRow {
        val env = result.environment
        val boot = env.apps.values.map { it.springBoot }.filter { it.isNotBlank() }.distinct().sorted()
            .ifEmpty { result.cells.mapNotNull { it.system.info?.path("springBoot")?.asString("")?.takeIf { v -> v.isNotBlank() } }.distinct().sorted() }
        return RunRow(
            id = result.run.id, suite = result.run.suite, startedAt = result.run.startedAt, finishedAt = result.run.finishedAt,
            status = result.run.status.name.lowercase(), host = env.hostname, gitCommit = env.gitCommit, gitDirty = env.gitDirty,
            runnerJdk = env.runnerJdk, appJdk = appJdk(result), kernel = env.kernel, boot = boot.joinToString(", ").ifEmpty { null },
            scale = result.run.scale, folder = folder,
        )
    }

    /**
     * The JDK the apps ran on: the run's (the lab's own) when no app names one; else each app that names one with the
     * version its JVM reported (`tomcat-17: 17.0.15+6-Debian-1deb12u1; tomcat-25: 25.0.3+9-LTS`), so that a suite whose
     * `jdk:` moved from one build or version to another shows it among what changed between runs.
     */
    private fun appJdk(result: RunResult): String {
        val named = result.cells.mapNotNull { c -> c.system.runtime?.takeIf { it.requested != null }?.let { c.app.name to (it.version ?: "JDK ${it.requested}") } }
            .distinct().sortedBy { it.first }
        if (named.isEmpty()) return result.environment.appJdk
        val others = result.cells.any { it.system.runtime?.requested == null && it.app.name !in named.map { n -> n.first } }
        return named.joinToString("; ") { "${it.first}: ${it.second}" } + if (others) "; the others: ${result.environment.appJdk}" else ""
    }

    fun cells(result: RunResult): List<CellRow> = result.cells.groupBy { it.configKey }.map { (key, cells) ->
        // each figure counts the windows the suite's decisions count for it: a throughput at its Little's-law ceiling
        // counts though flagged for the JIT or a slow host (Figure.THROUGHPUT's waiver), its p99 does not
        fun figure(f: Figure) = cells.filter { counts(it, f) }.let { counted ->
            Processes.grouped(counted) { c -> Counting.value(c, f) }.map { it.average() }.filter { it > 0 }
                .takeIf { it.isNotEmpty() }?.let { means -> PairedRatio.interval(means.map { ln(it) }) }
        }
        val throughput = figure(Figure.THROUGHPUT)
        val p99 = figure(Figure.P99)
        val counted = cells.filter { counts(it, Figure.THROUGHPUT) }
        val first = cells.first()
        CellRow(
            runId = result.run.id, configKey = key, app = first.app.name, endpoint = first.endpoint.label, load = first.load.label,
            windows = counted.size, processes = Processes.grouped(counted) { it }.size,
            throughput = throughput?.ratio, throughputLow = throughput?.low, throughputHigh = throughput?.high,
            p99 = p99?.ratio, p99Low = p99?.low, p99High = p99?.high,
        )
    }

    private fun counts(c: CellResult, figure: Figure) = Counting.counts(c, figure)
}
