package stackbench.runner.cell

import stackbench.runner.probe.GcLog
import java.nio.file.Files

/**
 * Stop: however the other steps ended. With `restart: app`, an app whose cell measured its window waits in the
 * session for the next cell of its configuration; any other app is stopped (SIGTERM, then SIGKILL) and its cgroup
 * removed. In: the app, if one started. Out: the GC pauses of its log (a JVM the lab started; null for any other app).
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
        // only a JVM the lab started writes a GC log: any other app's pauses are unknown, not none
        val gcLog = (started?.dir ?: run.dir).resolve("gc.log")
        val jvm = started?.sut?.capabilities?.jvm == true
        run.record.gcPauses = if (jvm) GcLog.parse(runCatching { Files.readAllLines(gcLog) }.getOrDefault(emptyList())) else null
        return null
    }
}
