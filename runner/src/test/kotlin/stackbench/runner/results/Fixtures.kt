package stackbench.runner.results

import stackbench.runner.plan.Cell
import stackbench.runner.plan.LoadShape

/** Small, plausible results for tests that need a [CellResult] without running anything. */
object Fixtures {

    fun info(cells: Int = 1) = RunInfo(
        id = "t-20261122T000000Z", suite = "t", suiteFile = "t.yaml", suiteText = "name: t\n", scale = 1.0,
        repetitions = 1, plannedCells = cells, command = listOf("stackbench", "run", "t.yaml"), startedAt = "2026-11-22T00:00:00Z",
    )

    fun environment() = Environment(
        hostname = "test", os = "Linux", kernel = "6.1", cpuModel = "test CPU", logicalCpus = 2, physicalCpus = 2,
        memoryBytes = 1L shl 34, runnerJdk = "Eclipse Adoptium 25", appJdk = "openjdk 25", drivers = mapOf("oha" to "oha 1.16.0"), isolation = "cgroup-v1",
    )

    /** A measured window of 10 s at [throughput] req/s, every answer a success, with the given p99. */
    fun load(throughput: Double, p99: Double = 10.0, model: String = "closed") = LoadResult(
        driver = "oha", model = model, latencyCorrected = model == "open", wallSeconds = 10.0,
        responses = (throughput * 10).toLong(), successes = (throughput * 10).toLong(), throughput = throughput,
        statusCodes = mapOf("200" to (throughput * 10).toLong()),
        latency = LatencyStats(min = 0.5, mean = p99 / 3, p50 = p99 / 4, p90 = p99 / 2, p99 = p99, p999 = p99 * 1.5, max = p99 * 2),
        spectrum = listOf(PercentilePoint(50.0, p99 / 4), PercentilePoint(99.0, p99)),
    )

    fun cell(cell: Cell, status: CellStatus = CellStatus.OK, reason: String? = null, throughput: Double = 1000.0): CellResult {
        val model = when (cell.load.shape) {
            is LoadShape.Closed -> "closed"
            is LoadShape.Open -> "open"
            is LoadShape.Scenario -> "scenario"
        }
        val (connections, rate) = cell.load.shape.connections to cell.load.shape.rate
        return CellResult(
            key = cell.key, configKey = cell.configKey, index = cell.index, folder = "cells/${cell.folder}", repetition = cell.repetition,
            status = status, reason = reason, process = cell.processLabel,
            app = AppRecord(cell.app.name, cell.app.source.id, cell.app.stack?.boot?.id, cell.app.stack?.label ?: cell.app.source.id, cell.app.virtualThreads),
            profile = ProfileRecord("quota+cpuset", 1.0, listOf(1), 1L shl 30, 805306368, 1, "cgroup-v1", listOf(0), listOf(0), false),
            endpoint = EndpointRecord(cell.endpoint.kind.id, cell.endpoint.strategy, cell.endpoint.params.toMap(), cell.endpoint.method,
                cell.endpoint.path, cell.endpoint.label),
            load = LoadRecord(cell.load.driver.id, model, connections, rate, 1000, 10_000, null, 5000, 1, cell.load.label),
            measured = if (status == CellStatus.OK) load(throughput, model = model) else null,
            timings = Timings(9000, 100, 1000, 10_000, 200, 20_300),
        )
    }
}
