package stackbench.runner.plan

import stackbench.runner.suite.Defaults
import stackbench.runner.suite.LoadLength
import java.time.Duration

/** How long cells take, for plans and the progress line's time-left estimate. */
object Estimates {
    /** Overhead, the warm-up (until steady: half way to its cap, a guess; twice with `warmup-reconnect`; `compile-first` before a configuration's first window in its process) and the window. */
    fun cell(cell: Cell): Duration = Defaults.CELL_OVERHEAD_ESTIMATE + warmup(cell) + measured(cell)

    fun warmup(cell: Cell): Duration = (cell.load.settings.warmup + (cell.load.settings.warmupMax - cell.load.settings.warmup).coerceAtLeast(Duration.ZERO).dividedBy(2))
        .multipliedBy(if (cell.load.settings.warmupReconnect) 2 else 1) +
        (cell.load.settings.compileFirst?.takeIf { cell.window == 1 }?.dividedBy(2) ?: Duration.ZERO)

    /** Priming every app process the cells start: one per app and process (`processes`) with `restart: app`, else one per cell (none without warm-up or with `prime: false`). */
    fun priming(cells: List<Cell>, restartApp: Boolean): Duration {
        val warmed = cells.filter { !it.load.settings.warmup.isZero && it.load.settings.prime }
        val processes = if (restartApp) warmed.map { Triple(it.app.name, it.profile, it.process) }.distinct().size else warmed.size
        val each = warmed.maxOfOrNull { it.load.settings.primeMax }?.let { minOf(it, Defaults.PRIME_ESTIMATE) } ?: Defaults.PRIME_ESTIMATE
        return each.multipliedBy(processes.toLong())
    }

    /** The window: a timed one half way to its `duration-max` when it has one (a guess, as for the warm-up). */
    fun measured(cell: Cell): Duration = when (val l = cell.load.settings.length) {
        is LoadLength.Timed -> l.duration + (cell.load.settings.durationMax?.minus(l.duration)?.coerceAtLeast(Duration.ZERO)?.dividedBy(2) ?: Duration.ZERO)
        is LoadLength.Counted -> {
            // a request's own time (its delay, or a guess for CPU work) spread over the connections
            val perRequestMs = (cell.endpoint.param("delay") ?: 10L).coerceAtLeast(1)
            val parallel = when (val s = cell.load.shape) {
                is LoadShape.Closed -> s.connections
                is LoadShape.Open -> s.connections
                is LoadShape.Scenario -> s.peakUsers
            }
            Duration.ofMillis(l.requests * perRequestMs / parallel.coerceAtLeast(1) + 1000)
        }
    }

    /**
     * [estimate] of the work left, at the pace the run has kept so far: scaled by the time the finished cells took over
     * what they were estimated at ([spent] ÷ [planned]), as the plan's guesses (the warm-up half way to its cap, a
     * counted run's length, priming) err alike for the cells of one suite. Unscaled before any cell finished.
     */
    fun paced(estimate: Duration, spent: Duration, planned: Duration): Duration =
        if (planned.isZero || spent.isZero) estimate else Duration.ofMillis((estimate.toMillis() * (spent.toMillis().toDouble() / planned.toMillis())).toLong())

    /** A capacity search takes about 8 steps up and 4 bisections. */
    fun search(search: CapacitySearch): Duration {
        val step = Defaults.CELL_OVERHEAD_ESTIMATE + search.template.settings.warmup + when (val l = search.template.settings.length) {
            is LoadLength.Timed -> l.duration
            is LoadLength.Counted -> Duration.ofSeconds(10)
        }
        return step.multipliedBy(12)
    }
}
