package stackbench.runner.cell

import stackbench.contract.Paths
import stackbench.runner.host.Placement
import stackbench.runner.load.DriveRequest
import stackbench.runner.plan.Cell
import stackbench.runner.plan.LoadShape
import stackbench.runner.probe.ServerCount
import stackbench.runner.probe.StatsChannel
import stackbench.runner.results.PrimeRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.suite.Defaults
import stackbench.runner.suite.LoadLength
import stackbench.runner.sut.RunningApp
import java.nio.file.Path
import java.time.Duration

/**
 * Primes a new app process before its first cell, in two stages on `/noop`:
 * 1. **compile**: one connection ([Defaults.PRIME_CONNECTIONS]) until the app is steady ([WarmupWatch]: compilation
 *    quiet, throughput without trend), at least [Defaults.PRIME_MIN] and at most the suite's `prime-max` ([Defaults.PRIME_MAX]), so the HTTP
 *    path every endpoint shares is compiled and the first cell of a JVM is no colder than the rest;
 * 2. **saturate**: [Defaults.PRIME_SATURATION_CONNECTIONS] connections until steady again (the same rule, at most
 *    [Defaults.PRIME_SATURATION_MAX]), and the app's CPU per exchange over its last [Defaults.PRIME_SATURATION] (its
 *    whole CPU per `/noop` answer, less the handler's own work and the JIT compiler threads' CPU) is the HTTP cost that
 *    the CPU-time ceilings add to each request's work. At one connection each answer also pays a wake-up of the
 *    server's threads, so the cost read there is several times too high (seen: 0.185 ms against 0.053 at saturation).
 */
class Priming(private val lab: Lab) {

    fun prime(
        cell: Cell, ctx: CellContext, app: RunningApp, placement: Placement, threads: Int, ready: ReadyDriver, dir: Path,
        compilerCpuMs: () -> Double?,
    ): PrimeRecord {
        // only the built-in apps are primed ([stackbench.runner.sut.Capabilities.primeEndpoint]): they have the stats channel
        val stats = StatsChannel(requireNotNull(app.statsUrl) { "priming needs the app's stats channel" }, lab.json)
        val watch = WarmupWatch(stats::read, Defaults.WARMUP_SLICE, compilerCpuMs, cell.profile.allottedCpus(lab.machineCpus), scatterMatters = false,
            compilerOnIdleCpuQuiet = false)
        val phase = LoadPhase(lab.hosts.load, lab.isolation)
        val compileMax = cell.load.settings.primeMax
        val saturationMax = minOf(Defaults.PRIME_SATURATION_MAX, cell.load.settings.primeMax)
        val start = System.nanoTime()
        val seconds = phase.runUntil(ready.driver, ready.executable, noop(cell, app, threads, dir.resolve("prime"), Defaults.PRIME_CONNECTIONS, compileMax),
            placement.driverCpus, "${ctx.groupPrefix}-${cell.index}-prime") {
            watch.pollUntilEnding(System.nanoTime() - start, compileMax) && System.nanoTime() - start >= Defaults.PRIME_MIN.toNanos() || ctx.stopping()
        }
        var saturation: WarmupRecord? = null
        var exchange: Double? = null
        if (!ctx.stopping()) {
            val readings = mutableListOf<Pair<ServerCount, Double?>>()
            val saturated = WarmupWatch({ stats.read()?.also { readings += it to compilerCpuMs() } }, Defaults.WARMUP_SLICE, compilerCpuMs,
                cell.profile.allottedCpus(lab.machineCpus), scatterMatters = false, compilerOnIdleCpuQuiet = false)
            val length = saturationMax + Defaults.PRIME_SATURATION_SETTLE
            val begun = System.nanoTime()
            val ran = phase.runUntil(ready.driver, ready.executable,
                noop(cell, app, threads, dir.resolve("prime-saturated"), Defaults.PRIME_SATURATION_CONNECTIONS, length),
                placement.driverCpus, "${ctx.groupPrefix}-${cell.index}-prime-saturated") {
                val elapsed = System.nanoTime() - begun
                // no reading while the connections fill; then until steady, and long enough to read the cost over
                elapsed >= Defaults.PRIME_SATURATION_SETTLE.toNanos() &&
                    saturated.pollUntilEnding(elapsed - Defaults.PRIME_SATURATION_SETTLE.toNanos(), saturationMax) &&
                    elapsed >= (Defaults.PRIME_SATURATION_SETTLE + Defaults.PRIME_SATURATION).toNanos() || ctx.stopping()
            }
            saturation = saturated.record(ran)
            exchange = lastSeconds(readings.map { it.first }, Defaults.PRIME_SATURATION)?.let { (a, b) ->
                val compiler = readings.first { it.first === a }.second?.let { ca -> readings.first { it.first === b }.second?.let { it - ca } }
                exchangeCpuMs(a, b, compiler)
            }
        }
        return PrimeRecord(Paths.NOOP, Defaults.PRIME_CONNECTIONS, watch.record(seconds), exchange, Defaults.PRIME_SATURATION_CONNECTIONS, saturation)
    }

    private fun noop(cell: Cell, app: RunningApp, threads: Int, out: Path, connections: Int, length: Duration) = DriveRequest(
        url = app.primeUrl.resolve(Paths.NOOP), method = "GET", body = null, basicAuth = null,
        shape = LoadShape.Closed(connections), length = LoadLength.Timed(length),
        timeout = cell.load.settings.timeout, threads = threads, outputDir = out,
    )

    companion object {
        /** The first reading at least [span] before the last one (or the first of all), and the last; null below two readings. */
        fun lastSeconds(readings: List<ServerCount>, span: Duration): Pair<ServerCount, ServerCount>? {
            if (readings.size < 2) return null
            val last = readings.last()
            val first = readings.lastOrNull { last.epochMs - it.epochMs >= span.toMillis() } ?: readings.first()
            return first to last
        }

        /**
         * The app's CPU per `/noop` answer between two readings, less the handler's own work and [compilerMs] (the JIT
         * compiler threads' CPU between them: compiling is not the exchange's cost, and at 50 connections the JIT still
         * takes a few % for a long while), ms; null without both readings.
         */
        fun exchangeCpuMs(first: ServerCount?, last: ServerCount?, compilerMs: Double? = null): Double? {
            if (first == null || last == null) return null
            val completed = last.completed - first.completed
            val a = first.processCpuNanos ?: return null
            val b = last.processCpuNanos ?: return null
            if (completed <= 0) return null
            val work = stackbench.runner.probe.WorkCount.nanosPerRequest(first.work[Paths.NOOP], last.work[Paths.NOOP]) ?: 0.0
            val compiler = (compilerMs ?: 0.0).coerceAtLeast(0.0) * 1e6
            return ((b - a - compiler) / completed - work) / 1e6
        }
    }
}
