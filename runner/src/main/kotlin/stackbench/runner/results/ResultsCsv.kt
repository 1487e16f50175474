package stackbench.runner.results

import tools.jackson.dataformat.csv.CsvMapper
import tools.jackson.dataformat.csv.CsvSchema

/** `results.csv`: one row per cell with its key figures, for spreadsheets. */
object ResultsCsv {
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

    private val mapper = CsvMapper()
    private val schema = CsvSchema.builder().also { b -> columns.forEach { (name, _) -> b.addColumn(name) } }.build().withHeader()

    fun render(result: RunResult): String {
        val rows = result.cells.map { cell -> columns.associate { (name, read) -> name to (read(cell)?.toString() ?: "") } }
        return mapper.writer(schema).writeValueAsString(rows)
    }
}
