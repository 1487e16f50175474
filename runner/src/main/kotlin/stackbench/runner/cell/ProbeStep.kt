package stackbench.runner.cell

import stackbench.runner.ceiling.Ceilings
import stackbench.runner.results.IdleProbe
import stackbench.runner.stats.Statistics

/**
 * Probe: a few requests one at a time, for about a second (at least 3, at most 30): the time a request takes with
 * nothing queued before it, for the ceilings. It runs last, on the warmest app the cell has (right after the warm-up
 * the JIT compiler still competed for the CPU and made single requests look several times slower), once per
 * configuration of a process: a later repetition reuses it, and names it. In: the app, quiet. Out: the idle probe.
 * A probe that fails (the app still busy past the timeout) costs the cell its ceiling, not its measurements.
 *
 * Only for the endpoints whose ceiling uses it ([Ceilings.LONE_REQUEST_KINDS]): requests unlike the load's make the
 * JIT drop the hot code of the request path (docs/methodology.md, *Checks of the steady state*).
 */
class ProbeStep(private val quiet: QuietWait) : CellStep {
    override val name = "probe"

    override fun run(run: CellRun): Outcome? {
        val (cell, ctx, app) = Triple(run.cell, run.ctx, run.started())
        if (cell.endpoint.kind.id !in Ceilings.LONE_REQUEST_KINDS && cell.endpoint.http?.concurrencyLimit == null) return null
        // fed or mixed requests are no one request to time alone
        if (cell.endpoint.http?.traffic != null) return null
        val probed = app.idleProbes[cell.configKey]
        if (probed != null) {
            run.record.idle = probed
        } else if (!ctx.stopping() && quiet.await(app, cell) != null) {
            run.record.idle = runCatching { probe(run) }
                .onSuccess { if (it != null) app.idleProbes[cell.configKey] = it.copy(probedBy = cell.key) }
                .onFailure { ctx.listener.note("  ${cell.key}: the idle probe failed (${it.message ?: it.javaClass.simpleName}); no time per lone request, so no ceiling") }
                .getOrNull()
        }
        return null
    }

    /** The lone requests, and the app's CPU time per request; null when one is answered with the wrong status. */
    private fun probe(run: CellRun): IdleProbe? {
        val (lab, cell, app) = Triple(run.lab, run.cell, run.started())
        val url = app.at(cell.endpoint.path)
        val cpuBefore = app.confinement.counters()?.cpuUsageNs
        val start = System.nanoTime()
        val times = mutableListOf<Double>()
        while (times.size < 30 && (times.size < 3 || System.nanoTime() - start < 1_000_000_000L)) {
            val answer = lab.http.call(url, cell.endpoint.method, run.body(), run.credentials(), cell.load.settings.timeout, cell.endpoint.http?.headers.orEmpty())
            if (answer.status != run.expectations.expectedStatus(cell.endpoint)) return null
            times += answer.elapsedMs
        }
        val cpuAfter = app.confinement.counters()?.cpuUsageNs
        val cpuPer = if (cpuBefore != null && cpuAfter != null) (cpuAfter - cpuBefore) / 1e6 / times.size else null
        return IdleProbe(times.size, Statistics.median(times), times.min(), cpuPer)
    }
}
