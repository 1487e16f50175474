package stackbench.runner.plan

import stackbench.runner.suite.Defaults
import java.time.Duration
import kotlin.math.ceil

/**
 * How long a closed-model window must be to count: each connection makes [Defaults.MIN_ROUND_TRIPS] round trips
 * or more in it. With few round trips, completions come in waves (every connection's request finishes at about
 * the same time), and the count depends on where the window cuts the waves. Pure.
 */
object WindowRule {

    /**
     * The window for a closed model of [connections] at the app's steady [rate] (req/s; null: unknown): [planned],
     * lengthened to hold the minimum round trips (a round trip takes connections ÷ rate, by Little's law), but
     * never past [full], the most the suite allows (its `duration-max`, or the length it asks for: `--scale`
     * shortens windows, never below what counts). Whole seconds, rounded up.
     */
    fun length(planned: Duration, full: Duration, connections: Int, rate: Double?): Duration {
        if (rate == null || rate <= 0 || connections <= 0) return planned
        val needed = Duration.ofMillis(ceil(Defaults.MIN_ROUND_TRIPS * connections / rate).toLong() * 1000)
        return if (planned >= needed) planned else minOf(needed, maxOf(full, planned))
    }

    /** The round trips each connection made: the window over the median latency. */
    fun roundTrips(windowSeconds: Double, p50Ms: Double?): Double? =
        if (p50Ms == null || p50Ms <= 0) null else windowSeconds * 1000.0 / p50Ms
}
