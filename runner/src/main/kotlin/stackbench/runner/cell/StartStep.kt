package stackbench.runner.cell

import stackbench.runner.sut.AppStarter

/**
 * Start: takes the app kept for this configuration (`restart: app`), or starts one in its confinement, waits until
 * it is healthy and takes its stats channel's threads out of its CPU limits. In: the cell, its placement, the
 * downstream service. Out: the app, its command, its time to healthy (null when reused), where its stats threads run
 * and the cell whose app it reuses.
 */
class StartStep(private val launcher: AppStarter) : CellStep {
    override val name = "start"

    override fun run(run: CellRun): Outcome? {
        val ctx = run.ctx
        val reused = ctx.sessions?.take(run.cell)
        if (reused != null) {
            run.app = reused
            run.record.reusedFrom = reused.startedBy
        } else {
            ctx.listener.phase(run.cell, "starting")
            val downstream = ctx.downstreamUrl(run.cell, run.placement)
            val app = launcher.start(run.cell, run.dir, "${ctx.groupPrefix}-${run.cell.index}-app", downstream)
            run.app = app
            run.healthyMs = launcher.awaitHealthy(app)
            // a start on every CPU ends here: the app's CPU limits hold before anything of it is measured
            launcher.applyCpuLimits(app)
            app.statsThreads = launcher.releaseStatsThreads(app, run.placement.driverCpus)
            app.runtime = stackbench.runner.sut.JvmRuntime.read(app)
        }
        run.record.command = run.started().command
        run.record.runtime = run.started().runtime
        run.record.statsThreads = run.started().statsThreads
        run.clock.mark("start")
        return null
    }
}
