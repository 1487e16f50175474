package stackbench.runner.results

import stackbench.runner.plan.Cell
import stackbench.runner.plan.LoadShape

/** Small, plausible results for tests that need a [CellResult] without running anything. */
object Fixtures {
    /**
     * A decision record built from the figures as schema 1 listed them (tests): the engine's fields go into its
     * [stackbench.runner.stats.RatioDecision], [decided] must agree with [relation].
     */
    fun decision(
        name: String, a: String, b: String, threshold: Double, ratio: Double?, low: Double?, high: Double?, pValue: Double?,
        nA: Int, nB: Int, relation: String, decided: Boolean, why: String, leftOut: List<String> = emptyList(), figure: String = "throughput",
        method: String? = null, processesA: Int? = null, processesB: Int? = null, df: Double? = null, confidence: Double? = null,
        look: Int? = null, maxLooks: Int? = null, pExact: Boolean? = null, processesRecorded: Boolean? = null,
        waived: List<String> = emptyList(), rules: String? = null, spreadA: SpreadRecord? = null, spreadB: SpreadRecord? = null,
        processesNeeded: Int? = null, jvms: Int? = null,
    ): DecisionRecord {
        val r = stackbench.runner.stats.Relation.entries.first { it.id == relation || it.text == relation }
        require(decided == (r != stackbench.runner.stats.Relation.UNDECIDED)) { "decided $decided against relation $relation" }
        val engine = stackbench.runner.stats.RatioDecision(ratio, low, high, pValue, nA, nB, threshold, r, why,
            method ?: stackbench.runner.stats.Decisions.BOOTSTRAP, processesA, processesB, df, confidence, look, maxLooks, pExact)
        return DecisionRecord(name, a, b, figure, engine, leftOut, processesRecorded, waived, rules, spreadA, spreadB, processesNeeded, jvms)
    }


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
            load = LoadRecord(cell.load.settings.driver.id, model, connections, rate, 1000, 10_000, null, 5000, 1, cell.load.label),
            window = WindowStage(measured = if (status == CellStatus.OK) load(throughput, model = model) else null),
            timings = Timings(9000, 100, 1000, 10_000, 200, 20_300),
        )
    }
}

/**
 * [this] with figures of its stages replaced, by their names in the stage groups (tests build cells this way: one
 * call where the groups would take a copy each).
 */
fun CellResult.staged(
    measured: LoadResult? = window.measured,
    shape: WindowRecord? = window.shape,
    jvm: JvmWindow? = window.jvm,
    pace: PaceReading? = window.pace,
    warmup: WarmupRecord? = this.warmup.record,
    compileFirst: WarmupRecord? = this.warmup.compileFirst,
    settling: SettlingRecord? = this.warmup.settling,
    resources: ResourceSummary? = this.resources.summary,
    samples: List<Sample> = this.resources.samples,
    ceiling: Ceiling? = this.ceiling.bound,
    idle: IdleProbe? = this.ceiling.idle,
    prime: PrimeRecord? = start.prime,
    startup: StartupResult? = start.startup,
    runtime: RuntimeRecord? = system.runtime,
): CellResult = copy(
    window = WindowStage(measured, shape, jvm, pace),
    warmup = this.warmup.copy(record = warmup, compileFirst = compileFirst, settling = settling),
    resources = ResourcesRecord(resources, samples),
    ceiling = CeilingRecord(idle, ceiling),
    start = StartRecord(startup, prime),
    system = system.copy(runtime = runtime),
)
