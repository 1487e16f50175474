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
     * lengthened to hold the minimum round trips at [P50_OVER_MEAN] times the mean round trip (which takes
     * connections ÷ rate, by Little's law), but never past [full], the most the suite allows (its `duration-max`,
     * or the length it asks for: `--scale` shortens windows, never below what counts). Whole seconds, rounded up.
     */
    fun length(planned: Duration, full: Duration, connections: Int, rate: Double?): Duration {
        if (rate == null || rate <= 0 || connections <= 0) return planned
        val needed = Duration.ofMillis(ceil(Defaults.MIN_ROUND_TRIPS * P50_OVER_MEAN * connections / rate).toLong() * 1000)
        return if (planned >= needed) planned else minOf(needed, maxOf(full, planned))
    }

    /**
     * The window is sized by the mean round trip (all the warm-up knows: its rate), but the `few-round-trips` flag
     * counts round trips at the measured p50, which a queue can put above the mean: Tomcat's request threads
     * counting primes to 300,000 at 400 connections on one CPU ran a mean round trip of 8.3 s (400 ÷ 48.1 req/s)
     * and a p50 of 10.2 s, 1.23×, and a window sized at the mean held 16 round trips at the p50. Sized at 1.4×
     * the mean, it holds 20 at a p50 up to 1.4× the mean.
     */
    const val P50_OVER_MEAN = 1.4

    /** The round trips each connection made: the window over the median latency. */
    fun roundTrips(windowSeconds: Double, p50Ms: Double?): Double? =
        if (p50Ms == null || p50Ms <= 0) null else windowSeconds * 1000.0 / p50Ms
}
