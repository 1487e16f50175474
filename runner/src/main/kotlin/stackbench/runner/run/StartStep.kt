package stackbench.runner.run

import stackbench.runner.sut.AppStarter

/**
 * Start: takes the app kept for this configuration (`restart: app`), or starts one in its confinement and waits
 * until it is healthy. In: the cell, its placement, the downstream service. Out: the app, its command, its time to
 * healthy (null when reused) and the cell whose app it reuses.
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
        }
        run.record.command = run.started().command
        run.clock.mark("start")
        return null
    }
}
