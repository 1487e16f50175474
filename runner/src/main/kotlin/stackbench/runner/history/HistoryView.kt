package stackbench.runner.history

import stackbench.runner.stats.Changepoints

/** What changed around the code between two consecutive runs: the environment the results record. */
data class EnvironmentChange(val from: String, val to: String, val what: String, val before: String, val after: String)

/** Where a series' mean shifted: at run [runId] (the first of the new segment), from [before] to [after]. */
data class ChangePoint(val figure: String, val index: Int, val runId: String, val before: Double, val after: Double) {
    val relative: Double get() = after / before - 1
}

/** One configuration over the runs: its row in each run that measured it (in run order), and the change points of its figures. */
data class CellSeries(val configKey: String, val app: String, val endpoint: String, val load: String, val points: List<Pair<RunRow, CellRow>>, val changes: List<ChangePoint>)

/** A suite's history: its runs, what changed between consecutive ones, and each configuration's series. */
data class HistoryView(val suite: String?, val runs: List<RunRow>, val environment: List<EnvironmentChange>, val series: List<CellSeries>)

/**
 * The history of a suite, read for people: change points by the lab's own PELT ([Changepoints], the warm-up watch's
 * method) over each figure's series of run values, each segment at least [MIN_SEGMENT] runs long (so one odd run is
 * not a change, and a series needs twice that many runs before it can have one). Pure.
 */
object HistoryViews {
    const val MIN_SEGMENT = 2
    const val THROUGHPUT = "throughput"
    const val P99 = "p99"

    fun of(suite: String?, runs: List<RunRow>, cells: List<CellRow>, keys: List<String> = emptyList()): HistoryView {
        val byId = runs.associateBy { it.id }
        val order = runs.withIndex().associate { it.value.id to it.index }
        val series = cells.filter { keys.isEmpty() || it.configKey in keys }.filter { it.runId in byId }.groupBy { it.configKey }.map { (key, rows) ->
            val points = rows.sortedBy { order.getValue(it.runId) }.map { byId.getValue(it.runId) to it }
            val first = rows.first()
            CellSeries(key, first.app, first.endpoint, first.load, points,
                changes(THROUGHPUT, points) { it.throughput } + changes(P99, points) { it.p99 })
        }.sortedBy { it.configKey }
        return HistoryView(suite, runs, environment(runs), series)
    }

    /** The change points of one figure; runs without the figure are skipped, not read as zero. */
    fun changes(figure: String, points: List<Pair<RunRow, CellRow>>, value: (CellRow) -> Double?): List<ChangePoint> {
        val present = points.mapNotNull { (run, row) -> value(row)?.takeIf { it.isFinite() }?.let { run to it } }
        val xs = present.map { it.second }
        val segments = Changepoints.segments(xs, MIN_SEGMENT)
        return segments.zipWithNext { a, b -> ChangePoint(figure, b.from, present[b.from].first.id, a.mean, b.mean) }
    }

    /** What the results record of the machine and software, set side by side for each pair of consecutive runs. */
    fun environment(runs: List<RunRow>): List<EnvironmentChange> = runs.zipWithNext { a, b ->
        listOf(
            Triple("commit", commit(a), commit(b)),
            Triple("runner JDK", a.runnerJdk, b.runnerJdk),
            Triple("app JDK", a.appJdk, b.appJdk),
            Triple("Spring Boot", a.boot, b.boot),
            Triple("kernel", a.kernel, b.kernel),
            Triple("host", a.host, b.host),
            Triple("scale", a.scale.toString(), b.scale.toString()),
        ).filter { it.second != it.third }.map { EnvironmentChange(a.id, b.id, it.first, it.second ?: "unknown", it.third ?: "unknown") }
    }.flatten()

    /** A run's start to the second, `2026-11-27 03:34:27Z`. */
    fun time(r: RunRow): String = r.startedAt.replace('T', ' ').replace(Regex("""(\d{2}:\d{2}:\d{2})\.\d+"""), "$1")

    /** A JDK's version line shortened to its version (`openjdk version "25.0.3" 2026-04-21 LTS` → `25.0.3`). */
    fun jdk(line: String?): String? = line?.let(stackbench.runner.results.RunProvenance::jdkVersion)

    fun commit(r: RunRow): String? = r.gitCommit?.take(10)?.plus(if (r.gitDirty == true) "+" else "")
}
