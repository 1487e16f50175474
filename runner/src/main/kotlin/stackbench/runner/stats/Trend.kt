package stackbench.runner.stats

import org.apache.commons.statistics.distribution.TDistribution
import kotlin.math.abs
import kotlin.math.max

/** Whether a series (e.g. the recent seconds of throughput) is still moving: its least-squares slope. */
object Trend {
    /**
     * The ordinary least-squares slope of a series against its index, [perStep] per point, with its 95 %
     * confidence interval [[low], [high]] from the t distribution on n − 2 degrees of freedom, over [n] points.
     * Fewer than 3 points leave no degree of freedom for the interval: it is (−∞, +∞); fewer than 2 have no
     * slope either: [perStep] is NaN.
     */
    data class Slope(val perStep: Double, val low: Double, val high: Double, val n: Int)

    fun slope(xs: List<Double>): Slope = slope(xs, xs.indices.map { it.toDouble() })

    /**
     * The least-squares slope of [xs] against [at] (their times, say), per unit of [at], with its 95 % interval.
     * [autocorrelation] (τ, at least 1) is how many consecutive points move together ([WindowPrecision.autocorrelationTime]):
     * the n points then hold n ÷ τ independent readings, so the slope's standard error is √τ times the ordinary one and
     * the t quantile has n ÷ τ − 2 degrees of freedom (at least 1). τ = 1 gives the ordinary interval.
     */
    fun slope(xs: List<Double>, at: List<Double>, autocorrelation: Double = 1.0): Slope {
        require(at.size == xs.size) { "${xs.size} values against ${at.size} positions" }
        require(autocorrelation >= 1.0) { "an autocorrelation time is at least 1, not $autocorrelation" }
        val n = xs.size
        if (n < 2) return Slope(Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, n)
        // least squares: b = Sxy / Sxx; the slope's standard error sqrt(SSE / (n − 2) / Sxx)
        val meanX = at.average()
        val meanY = xs.average()
        val sxx = at.sumOf { (it - meanX) * (it - meanX) }
        require(sxx > 0) { "a slope needs at least two different positions" }
        val b = xs.indices.sumOf { (at[it] - meanX) * (xs[it] - meanY) } / sxx
        if (n < 3) return Slope(b, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, n)
        val sse = xs.indices.sumOf { val r = xs[it] - meanY - b * (at[it] - meanX); r * r }
        val degrees = max(1.0, n / autocorrelation - 2)
        val t = TDistribution.of(degrees).inverseCumulativeProbability(0.975)
        val half = t * kotlin.math.sqrt(sse / (n - 2) / sxx * autocorrelation)
        return Slope(b, b - half, b + half, n)
    }

    /**
     * True when the series shows no trend that matters: its slope's 95 % interval contains 0 (no significant
     * slope), or the whole interval is practically flat (at either end of the interval, the change over the
     * series, |slope| × (n − 1), is below [tolerance] × |mean|). False with fewer than 3 points, which cannot
     * show either.
     *
     * Note the first arm: a short, noisy series has a wide interval that contains 0 and is called flat even
     * if it hides a real trend; "flat" here means "no trend shown", not "shown to be flat" (the second arm).
     */
    fun flat(xs: List<Double>, tolerance: Double): Boolean {
        require(tolerance >= 0) { "tolerance must not be negative, not $tolerance" }
        if (xs.size < 3) return false
        val s = slope(xs)
        if (s.low <= 0 && s.high >= 0) return true
        return max(abs(s.low), abs(s.high)) * (s.n - 1) < tolerance * abs(xs.average())
    }
}
