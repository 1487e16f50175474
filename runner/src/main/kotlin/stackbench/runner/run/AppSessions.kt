package stackbench.runner.run

import stackbench.contract.Paths
import stackbench.runner.plan.Cell
import stackbench.runner.sut.Http
import stackbench.runner.sut.RunningApp
import java.time.Duration

/**
 * With `restart: app`, keeps the app a cell ran against for the next cell of the same configuration.
 * Holds at most one app: taking it for a cell of another configuration (or finding it unhealthy) stops it.
 */
class AppSessions(private val http: Http) {
    private var kept: Pair<String, RunningApp>? = null

    private fun keyOf(cell: Cell) = "${cell.app}|${cell.profile}"

    /** The kept app, if it runs [cell]'s configuration and still answers its health check. */
    @Synchronized
    fun take(cell: Cell): RunningApp? {
        val (key, app) = kept ?: return null
        kept = null
        if (key == keyOf(cell) && app.child.isAlive() && http.statusOf(app.baseUrl.resolve(Paths.HEALTH), Duration.ofSeconds(5)) == 200) return app
        runCatching { app.stop() }
        return null
    }

    @Synchronized
    fun keep(cell: Cell, app: RunningApp) {
        kept?.second?.takeIf { it !== app }?.let { runCatching { it.stop() } }
        kept = keyOf(cell) to app
    }

    @Synchronized
    fun stopAll() {
        kept?.second?.let { runCatching { it.stop() } }
        kept = null
    }
}
