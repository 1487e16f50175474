package stackbench.runner.stats

import org.apache.commons.statistics.distribution.TDistribution
import kotlin.math.max
import kotlin.math.sqrt

/**
 * How closely a window's own per-second series pins its mean: the 95 % interval's half-width, absolute and as a share
 * of the mean, read with the series' autocorrelation. [autocorrelationSeconds] (τ) is how many consecutive seconds move
 * together: n seconds hold about n ÷ τ independent readings ([effectiveSeconds]), and the mean's standard error is
 * σ·√(τ ÷ n), not σ ÷ √n.
 */
data class Precision(
    val mean: Double,
    val halfWidth: Double,
    val relative: Double,
    val autocorrelationSeconds: Double,
    val effectiveSeconds: Double,
    val seconds: Int,
)

/**
 * The precision of a window's mean from its per-second series, by the integrated autocorrelation time
 * τ = 1 + 2 Σ ρ(k), summed over the lags before the first autocorrelation that is not positive (the initial positive
 * sequence, after Geyer, "Practical Markov Chain Monte Carlo", 1992), and a t interval on the n ÷ τ independent
 * readings. A saturated server's per-second throughput on a shared machine wanders in spells of a few seconds, so
 * consecutive seconds are not independent: ignoring it would claim a 30 s window twice as precise as it is.
 *
 * Short series underestimate τ a little. On simulated spells (AR(1), τ = 3) the interval covered the true mean 91 %
 * of the time over 30 or 60 s and 94 % over 120 s; Sokal's automatic window covered 82-90 %, and was not used. Pure.
 */
object WindowPrecision {
    /** The fewest seconds from which a precision is read. */
    const val MIN_SECONDS = 8

    fun of(xs: List<Double>): Precision? {
        val n = xs.size
        if (n < MIN_SECONDS) return null
        val mean = xs.average()
        val centred = xs.map { it - mean }
        val variance = centred.sumOf { it * it } / n
        if (variance == 0.0 || mean == 0.0) return Precision(mean, 0.0, 0.0, 1.0, n.toDouble(), n)
        val tau = autocorrelationTime(centred, variance)
        val effective = n / tau
        val sampleSd = sqrt(variance * n / (n - 1))
        val standardError = sampleSd * sqrt(tau / n)
        val degrees = max(1.0, effective - 1)
        val half = TDistribution.of(degrees).inverseCumulativeProbability(0.975) * standardError
        return Precision(mean, half, half / mean, tau, effective, n)
    }

    /**
     * The integrated autocorrelation time τ of [xs] (at least 1): 1 + 2 Σ ρ(k) over the lags before the first
     * autocorrelation that is not positive, up to half the series. 1 for a constant series or fewer than 4 points.
     */
    fun autocorrelationTime(xs: List<Double>): Double {
        val mean = xs.average()
        val centred = xs.map { it - mean }
        val variance = centred.sumOf { it * it } / xs.size
        return if (xs.size < 4 || variance == 0.0) 1.0 else autocorrelationTime(centred, variance)
    }

    private fun autocorrelationTime(centred: List<Double>, variance: Double): Double {
        var tau = 1.0
        for (lag in 1 until centred.size / 2) {
            val rho = autocorrelation(centred, variance, lag)
            if (rho <= 0) break
            tau += 2 * rho
        }
        return max(1.0, tau)
    }

    private fun autocorrelation(centred: List<Double>, variance: Double, lag: Int): Double {
        var sum = 0.0
        for (i in 0 until centred.size - lag) sum += centred[i] * centred[i + lag]
        return sum / centred.size / variance
    }
}
