package stackbench.runner.run

import stackbench.contract.Paths
import stackbench.runner.host.Placement
import stackbench.runner.load.DriveRequest
import stackbench.runner.plan.Cell
import stackbench.runner.plan.LoadShape
import stackbench.runner.probe.ServerCount
import stackbench.runner.probe.StatsChannel
import stackbench.runner.results.PrimeRecord
import stackbench.runner.suite.Defaults
import stackbench.runner.suite.LoadLength
import stackbench.runner.sut.RunningApp
import java.nio.file.Path
import java.time.Duration

/**
 * Primes a new app process before its first cell, in two stages on `/noop`:
 * 1. **compile**: one connection ([Defaults.PRIME_CONNECTIONS]) until the app is steady ([WarmupWatch]: compilation
 *    quiet, throughput without trend), at least [Defaults.PRIME_MIN] and at most [Defaults.PRIME_MAX], so the HTTP
 *    path every endpoint shares is compiled and the first cell of a JVM is no colder than the rest;
 * 2. **saturate**: [Defaults.PRIME_SATURATION_CONNECTIONS] connections for [Defaults.PRIME_SATURATION], and the app's
 *    CPU per exchange over it (its whole CPU per `/noop` answer, less the handler's own work) is the HTTP cost that
 *    the CPU-time ceilings add to each request's work. At one connection each answer also pays a wake-up of the
 *    server's threads, so the cost read there is several times too high (seen: 0.185 ms against 0.053 at saturation).
 */
class Priming(private val lab: Lab) {

    fun prime(
        cell: Cell, ctx: CellContext, app: RunningApp, placement: Placement, threads: Int, ready: ReadyDriver, dir: Path,
        compilerCpuMs: () -> Double?,
    ): PrimeRecord {
        val stats = StatsChannel(app.statsUrl, lab.json)
        val watch = WarmupWatch(stats::read, Defaults.WARMUP_SLICE, compilerCpuMs, cell.profile.allottedCpus(lab.machineCpus), scatterMatters = false,
            compilerOnIdleCpuQuiet = false)
        val phase = LoadPhase(lab.hosts.driver, lab.isolation)
        val start = System.nanoTime()
        val seconds = phase.runUntil(ready.driver, ready.executable, noop(cell, app, threads, dir.resolve("prime"), Defaults.PRIME_CONNECTIONS, Defaults.PRIME_MAX),
            placement.driverCpus, "${ctx.groupPrefix}-${cell.index}-prime") {
            watch.pollUntilEnding(System.nanoTime() - start, Defaults.PRIME_MAX) && System.nanoTime() - start >= Defaults.PRIME_MIN.toNanos() || ctx.stopping()
        }
        var first: ServerCount? = null
        var last: ServerCount? = null
        if (!ctx.stopping()) {
            val settle = System.nanoTime() + Defaults.PRIME_SATURATION_SETTLE.toNanos()
            phase.runUntil(ready.driver, ready.executable,
                noop(cell, app, threads, dir.resolve("prime-saturated"), Defaults.PRIME_SATURATION_CONNECTIONS, Defaults.PRIME_SATURATION + Defaults.PRIME_SATURATION_SETTLE),
                placement.driverCpus, "${ctx.groupPrefix}-${cell.index}-prime-saturated") {
                // the first reading once every connection is busy, the last just before the driver's end
                if (first == null && System.nanoTime() >= settle) first = stats.read()
                if (first != null) stats.read()?.let { last = it }
                ctx.stopping()
            }
        }
        return PrimeRecord(Paths.NOOP, Defaults.PRIME_CONNECTIONS, watch.record(seconds), exchangeCpuMs(first, last), Defaults.PRIME_SATURATION_CONNECTIONS)
    }

    private fun noop(cell: Cell, app: RunningApp, threads: Int, out: Path, connections: Int, length: Duration) = DriveRequest(
        url = app.primeUrl.resolve(Paths.NOOP), method = "GET", body = null, basicAuth = null,
        shape = LoadShape.Closed(connections), length = LoadLength.Timed(length),
        timeout = cell.load.timeout, threads = threads, outputDir = out,
    )

    companion object {
        /** The app's CPU per `/noop` answer between two readings, less the handler's own work, ms; null without both. */
        fun exchangeCpuMs(first: ServerCount?, last: ServerCount?): Double? {
            if (first == null || last == null) return null
            val completed = last.completed - first.completed
            val a = first.processCpuNanos ?: return null
            val b = last.processCpuNanos ?: return null
            if (completed <= 0) return null
            val work = stackbench.runner.probe.WorkCount.nanosPerRequest(first.work[Paths.NOOP], last.work[Paths.NOOP]) ?: 0.0
            return ((b - a).toDouble() / completed - work) / 1e6
        }
    }
}
