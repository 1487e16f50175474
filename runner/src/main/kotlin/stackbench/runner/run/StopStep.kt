package stackbench.runner.run

import stackbench.runner.probe.GcLog
import java.nio.file.Files

/**
 * Stop: however the other steps ended. With `restart: app`, an app whose cell measured its window waits in the
 * session for the next cell of its configuration; any other app is stopped (SIGTERM, then SIGKILL) and its cgroup
 * removed. In: the app, if one started. Out: the GC pauses of its log.
 */
class StopStep : CellStep {
    override val name = "stop"

    override fun run(run: CellRun): Outcome? {
        val (cell, ctx, started) = Triple(run.cell, run.ctx, run.app)
        if (started != null && ctx.sessions != null && run.record.measured != null && !ctx.stopping()) {
            ctx.sessions.keep(cell, started)
        } else {
            ctx.listener.phase(cell, "stopping")
            runCatching { started?.stop() }
        }
        run.clock.mark("stop")
        val gcLog = (started?.dir ?: run.dir).resolve("gc.log")
        run.record.gcPauses = GcLog.parse(runCatching { Files.readAllLines(gcLog) }.getOrDefault(emptyList()))
        return null
    }
}
