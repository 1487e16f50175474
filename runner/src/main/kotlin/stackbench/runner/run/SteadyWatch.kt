package stackbench.runner.run

import stackbench.runner.probe.ServerCount
import stackbench.runner.probe.StatsChannel
import java.time.Duration

/**
 * Watches the app's own completion counter during a warm-up and says when its throughput has settled:
 * the rate over consecutive windows of [window], and steady once two in a row agree within [within].
 * Counted by the app, so it sees a rate even when answers take longer than a window.
 */
class SteadyWatch(private val read: () -> ServerCount?, private val window: Duration, private val within: Double) {
    constructor(stats: StatsChannel, window: Duration, within: Double) : this({ stats.read() }, window, within)

    private var windowStart: ServerCount? = null
    /** Completions per second of each finished window, in order. */
    val rates = mutableListOf<Double>()

    /** Takes a reading; true when the last two finished windows agree. */
    fun poll(): Boolean {
        val now = read() ?: return false
        val start = windowStart
        if (start == null) {
            windowStart = now
            return false
        }
        val elapsed = now.epochMs - start.epochMs
        if (elapsed >= window.toMillis()) {
            rates += (now.completed - start.completed) * 1000.0 / elapsed
            windowStart = now
        }
        return steady()
    }

    fun steady(): Boolean {
        if (rates.size < 2) return false
        val (a, b) = rates.takeLast(2)
        return a > 0 && kotlin.math.abs(b - a) / a <= within
    }
}
