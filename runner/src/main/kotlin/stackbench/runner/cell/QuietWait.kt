package stackbench.runner.cell

import stackbench.runner.plan.Cell
import stackbench.runner.probe.OpenConnections
import stackbench.runner.probe.ServerCount
import stackbench.runner.suite.Defaults
import stackbench.runner.sut.RunningApp

/**
 * Waits until an app has finished the requests still in flight when a driver stopped: until its own completion
 * counter has not moved for [Defaults.QUIET_FOR] and it holds no client connection on its port ([OpenConnections]),
 * at most the cell's timeout.
 */
class QuietWait(private val lab: Lab) {
    /** How long that took, or null if the app never went quiet (or never answered its counter). */
    fun await(app: RunningApp, cell: Cell): Long? {
        val port = app.baseUrl.port
        val start = System.nanoTime()
        val deadline = start + cell.load.settings.timeout.toNanos()
        // an app without a counter is quiet once no client holds a connection to it
        val stats = app.counter(lab.json) ?: return noConnections(app, port, start, deadline)
        // a saturated app may not answer the stats channel in time: that is not quiet, so keep asking until the deadline
        var first = stats()
        while (first == null) {
            if (System.nanoTime() >= deadline) return null
            Thread.sleep(50)
            first = stats()
        }
        var last: ServerCount = first
        var since = System.nanoTime()
        while (System.nanoTime() < deadline) {
            Thread.sleep(50)
            val now = stats() ?: continue
            if (now.completed != last.completed) {
                last = now
                since = System.nanoTime()
            } else if (System.nanoTime() - since >= Defaults.QUIET_FOR.toNanos() && (app.pid?.let { OpenConnections.read(it, port) } ?: 0) == 0) {
                return (System.nanoTime() - start) / 1_000_000
            }
        }
        return null
    }

    private fun noConnections(app: RunningApp, port: Int, start: Long, deadline: Long): Long? {
        // without a process of its own to read, the lab cannot see the app's connections: a short pause, so the load
        // generator's last requests leave this machine, and unknown (null), never "quiet"
        val pid = app.pid ?: return null.also { Thread.sleep(Defaults.QUIET_FOR.toMillis()) }
        var since: Long? = null
        while (System.nanoTime() < deadline) {
            val open = OpenConnections.read(pid, port) ?: return null
            if (open > 0) since = null else if (since == null) since = System.nanoTime()
            if (since != null && System.nanoTime() - since >= Defaults.QUIET_FOR.toNanos()) return (System.nanoTime() - start) / 1_000_000
            Thread.sleep(50)
        }
        return null
    }
}
