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
        "throughput" to { c -> c.measured?.throughput },
        "responses" to { c -> c.measured?.responses },
        "successes" to { c -> c.measured?.successes },
        "errors" to { c -> c.measured?.errorCount },
        "errorRate" to { c -> c.measured?.errorRate },
        "aborted" to { c -> c.measured?.aborted?.values?.sum() },
        "dropped" to { c -> c.measured?.dropped },
        "p50Ms" to { c -> c.measured?.latency?.p50 },
        "p90Ms" to { c -> c.measured?.latency?.p90 },
        "p99Ms" to { c -> c.measured?.latency?.p99 },
        "p999Ms" to { c -> c.measured?.latency?.p999 },
        "maxMs" to { c -> c.measured?.latency?.max },
        "latencyCorrected" to { c -> c.measured?.latencyCorrected },
        "cpuShare" to { c -> c.resources?.cpuShare },
        "rssMaxBytes" to { c -> c.resources?.rssMaxBytes },
        "requestsPerCpuSecond" to { c -> Efficiency.perCpuSecond(c) },
        "requestsPerSecondPerMib" to { c -> Efficiency.perMib(c) },
        "threadsMax" to { c -> c.resources?.threadsMax },
        "voluntaryCtxPerSecond" to { c -> c.resources?.voluntaryCtxPerSecond },
        "involuntaryCtxPerSecond" to { c -> c.resources?.involuntaryCtxPerSecond },
        "throttledPeriods" to { c -> c.resources?.throttledPeriods },
        "periods" to { c -> c.resources?.periods },
        "gcPauseTotalMs" to { c -> c.resources?.gcPauseTotalMs },
        "driverCpuShare" to { c -> c.resources?.driverCpuShare },
        "ceilingRps" to { c -> c.ceiling?.requestsPerSecond },
        "efficiency" to { c -> c.ceiling?.efficiency },
        "startupMs" to { c -> c.startup?.toHealthyMs },
        "hostPace" to { c -> c.pace?.relative },
        "hostPaceFloor" to { c -> c.pace?.floorRelative },
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
