package stackbench.runner.results

import tools.jackson.dataformat.csv.CsvMapper
import tools.jackson.dataformat.csv.CsvSchema

/**
 * `results.csv`: one row per cell with its key figures, for spreadsheets; `request` is `all` on it (every request the
 * cell sent). A cell of several named requests ([LoadResult.requests]: a mix, a scenario's steps) has one more row a
 * request after it, `request` its name: the cell's columns that say what it is (key, app, load...) repeated, the
 * request's own answers, errors and latency, and the cell's other figures (CPU, memory, ceiling) left empty, as they are
 * every request's together. Filtering on `request` keeps one row a cell (`all`) or one request's rows.
 */
object ResultsCsv {
    /** The `request` of a cell's own row: every request it sent together. */
    const val ALL = "all"

    /** The columns, in order, with how each is read from a cell. */
    private val columns: List<Pair<String, (CellResult) -> Any?>> = listOf(
        "index" to { c -> c.index },
        "key" to { c -> c.key },
        "status" to { c -> c.status.name },
        "app" to { c -> c.app.name },
        "stack" to { c -> c.app.stack },
        "boot" to { c -> c.app.boot },
        "virtualThreads" to { c -> c.app.virtualThreads },
        "endpoint" to { c -> c.endpoint.label },
        "request" to { _ -> ALL },
        "driver" to { c -> c.load.driver },
        "model" to { c -> c.load.model },
        "connections" to { c -> c.load.connections },
        "rate" to { c -> c.load.rate },
        "instances" to { c -> c.load.instances },
        "repetition" to { c -> c.repetition },
        "cpuLimit" to { c -> c.profile.cpuLimit },
        "throughput" to { c -> c.window.measured?.throughput },
        "responses" to { c -> c.window.measured?.responses },
        "successes" to { c -> c.window.measured?.successes },
        "errors" to { c -> c.window.measured?.errorCount },
        "errorRate" to { c -> c.window.measured?.errorRate },
        "aborted" to { c -> c.window.measured?.aborted?.values?.sum() },
        "dropped" to { c -> c.window.measured?.dropped },
        "p50Ms" to { c -> c.window.measured?.latency?.p50 },
        "p90Ms" to { c -> c.window.measured?.latency?.p90 },
        "p99Ms" to { c -> c.window.measured?.latency?.p99 },
        "p999Ms" to { c -> c.window.measured?.latency?.p999 },
        "maxMs" to { c -> c.window.measured?.latency?.max },
        "latencyCorrected" to { c -> c.window.measured?.latencyCorrected },
        "cpuShare" to { c -> c.resources.summary?.cpuShare },
        "rssMaxBytes" to { c -> c.resources.summary?.rssMaxBytes },
        "requestsPerCpuSecond" to { c -> Efficiency.perCpuSecond(c) },
        "requestsPerSecondPerMib" to { c -> Efficiency.perMib(c) },
        "threadsMax" to { c -> c.resources.summary?.threadsMax },
        "voluntaryCtxPerSecond" to { c -> c.resources.summary?.voluntaryCtxPerSecond },
        "involuntaryCtxPerSecond" to { c -> c.resources.summary?.involuntaryCtxPerSecond },
        "throttledPeriods" to { c -> c.resources.summary?.throttledPeriods },
        "periods" to { c -> c.resources.summary?.periods },
        "gcPauseTotalMs" to { c -> c.resources.summary?.gcPauseTotalMs },
        "driverCpuShare" to { c -> c.resources.summary?.driverCpuShare },
        "ceilingRps" to { c -> c.ceiling.bound?.requestsPerSecond },
        "efficiency" to { c -> c.ceiling.bound?.efficiency },
        "startupMs" to { c -> c.start.startup?.toHealthyMs },
        "hostPace" to { c -> c.window.pace?.relative },
        "hostPaceFloor" to { c -> c.window.pace?.floorRelative },
        "flags" to { c -> c.flags.joinToString(" ") { it.code } },
        "reason" to { c -> c.reason },
    )

    /** A named request's own figures, by column; a column in [SAME] is the cell's; every other is empty on its row. */
    private val perRequest: Map<String, (NamedLoad) -> Any?> = mapOf(
        "request" to { r -> r.name },
        "throughput" to { r -> r.throughput },
        "responses" to { r -> r.responses },
        "successes" to { r -> r.successes },
        "errors" to { r -> r.errorCount },
        "errorRate" to { r -> r.errorRate },
        "p50Ms" to { r -> r.latency.p50 },
        "p90Ms" to { r -> r.latency.p90 },
        "p99Ms" to { r -> r.latency.p99 },
        "p999Ms" to { r -> r.latency.p999 },
        "maxMs" to { r -> r.latency.max },
    )

    /** The columns that say what the cell is, repeated on each of its requests' rows. */
    private val SAME = setOf("index", "key", "status", "app", "stack", "boot", "virtualThreads", "endpoint", "driver", "model",
        "connections", "rate", "instances", "repetition", "cpuLimit", "latencyCorrected", "hostPace", "hostPaceFloor", "flags")

    private val mapper = CsvMapper()
    private val schema = CsvSchema.builder().also { b -> columns.forEach { (name, _) -> b.addColumn(name) } }.build().withHeader()

    fun render(result: RunResult): String {
        val rows = result.cells.flatMap { cell ->
            val own = columns.associate { (name, read) -> name to (read(cell)?.toString() ?: "") }
            listOf(own) + cell.window.measured?.requests.orEmpty().map { r ->
                columns.associate { (name, _) -> name to (perRequest[name]?.invoke(r)?.toString() ?: if (name in SAME) own.getValue(name) else "") }
            }
        }
        return mapper.writer(schema).writeValueAsString(rows)
    }
}
