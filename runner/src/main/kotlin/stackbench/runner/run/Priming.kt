package stackbench.runner.run

import stackbench.contract.Paths
import stackbench.runner.host.Placement
import stackbench.runner.load.DriveRequest
import stackbench.runner.plan.Cell
import stackbench.runner.plan.LoadShape
import stackbench.runner.probe.StatsChannel
import stackbench.runner.results.PrimeRecord
import stackbench.runner.suite.Defaults
import stackbench.runner.suite.LoadLength
import stackbench.runner.sut.RunningApp
import java.nio.file.Path

/**
 * Primes a new app process before its first cell: `/noop` at [Defaults.PRIME_CONNECTIONS] connections until
 * the app is steady ([WarmupWatch]: compilation quiet, throughput without trend), at least
 * [Defaults.PRIME_MIN] and at most [Defaults.PRIME_MAX]. The HTTP path every endpoint shares is then compiled,
 * so the first cell of a JVM is no colder than the rest; and the app's CPU per `/noop` exchange at saturation
 * is the HTTP cost that the CPU-time ceilings add to each request's work.
 */
class Priming(private val lab: Lab) {

    fun prime(
        cell: Cell, ctx: CellContext, app: RunningApp, placement: Placement, threads: Int, ready: ReadyDriver, dir: Path,
        compilerCpuMs: () -> Double?,
    ): PrimeRecord {
        val watch = WarmupWatch(StatsChannel(app.statsUrl, lab.json)::read, Defaults.WARMUP_SLICE, compilerCpuMs,
            cell.profile.allottedCpus(lab.machineCpus), scatterMatters = false)
        val request = DriveRequest(
            url = app.baseUrl.resolve(Paths.NOOP), method = "GET", body = null, basicAuth = null,
            shape = LoadShape.Closed(Defaults.PRIME_CONNECTIONS), length = LoadLength.Timed(Defaults.PRIME_MAX),
            timeout = cell.load.timeout, threads = threads, outputDir = dir.resolve("prime"),
        )
        val start = System.nanoTime()
        val seconds = LoadPhase(lab.host, lab.isolation).runUntil(ready.driver, ready.executable, request, placement.driverCpus,
            "${ctx.groupPrefix}-${cell.index}-prime") {
            watch.poll() && System.nanoTime() - start >= Defaults.PRIME_MIN.toNanos() || ctx.stopping()
        }
        return PrimeRecord(Paths.NOOP, Defaults.PRIME_CONNECTIONS, watch.record(seconds), watch.exchangeCpuMsPerRequest(Paths.NOOP))
    }
}
