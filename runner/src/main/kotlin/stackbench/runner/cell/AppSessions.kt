package stackbench.runner.cell

import stackbench.runner.plan.Cell
import stackbench.runner.sut.Http
import stackbench.runner.sut.RunningApp
import java.time.Duration

/**
 * With `restart: app`, keeps the app a cell ran against, idle, for the next cell of the same configuration,
 * also when cells of other configurations run in between: repetitions are interleaved, and each app keeps
 * its warmed JVM across them rather than starting (and priming) again for every round. Holds at most
 * [maxKept] apps; keeping one more stops the one idle longest. An app whose process died or whose stats channel
 * no longer answers is stopped and not reused. The check asks the stats channel, not the app's health endpoint:
 * any request on the app's own port between two repetitions can make the JIT drop the hot code of the load's path
 * (see [VerifyStep]).
 *
 * A suite's `processes` give each app several processes in turn ([Cell.process]): the kept app serves only cells of
 * its own process; the first cell of the next process stops it and starts a new JVM, and the runner stops it earlier,
 * once no cell left to run is of its process ([retire]).
 */
class AppSessions(private val http: Http, private val maxKept: Int = DEFAULT_MAX_KEPT) {
    private val kept = LinkedHashMap<String, RunningApp>()
    private val processOf = HashMap<String, Int>()

    private fun keyOf(cell: Cell) = "${cell.app.name}|${cell.profile}"

    /** The kept app, if one runs [cell]'s configuration and its stats channel still answers. */
    @Synchronized
    fun take(cell: Cell): RunningApp? {
        val app = kept.remove(keyOf(cell)) ?: return null
        if (processOf.remove(keyOf(cell)) != cell.process) {
            // the cell belongs to the next process of its app: a new JVM, not this one
            runCatching { app.stop() }
            return null
        }
        val alive = app.statsUrl?.let { http.statusOf(it, Duration.ofSeconds(5)) == 200 }
            ?: app.sut.readiness.isReady(http.statusOf(app.at(app.sut.readiness.path), Duration.ofSeconds(5)))
        if (app.isAlive() && alive) return app
        runCatching { app.stop() }
        return null
    }

    @Synchronized
    fun keep(cell: Cell, app: RunningApp) {
        kept.remove(keyOf(cell))?.takeIf { it !== app }?.let { runCatching { it.stop() } }
        kept[keyOf(cell)] = app
        processOf[keyOf(cell)] = cell.process
        while (kept.size > maxKept) {
            val oldest = kept.keys.first()
            processOf.remove(oldest)
            kept.remove(oldest)?.let { runCatching { it.stop() } }
        }
    }

    /**
     * Stops every kept app that none of [upcoming] will use (no cell of its configuration and process among them), so
     * that a process whose last cell has run does not sit idle beside the ones measured next, on their CPU, holding its
     * memory and its connections to the database.
     */
    @Synchronized
    fun retire(upcoming: List<Cell>) {
        val wanted = upcoming.map { keyOf(it) to it.process }.toSet()
        kept.keys.filter { key -> (key to processOf.getValue(key)) !in wanted }.forEach { key ->
            processOf.remove(key)
            kept.remove(key)?.let { runCatching { it.stop() } }
        }
    }

    @Synchronized
    fun stopAll() {
        kept.values.forEach { runCatching { it.stop() } }
        kept.clear()
        processOf.clear()
    }

    companion object {
        /** Idle apps of 1 GiB each fit this machine's memory many times over; four keep a suite's configurations warm. */
        const val DEFAULT_MAX_KEPT = 4
    }
}
