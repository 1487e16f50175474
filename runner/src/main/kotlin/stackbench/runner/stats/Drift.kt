package stackbench.runner.stats

/**
 * How fast a throughput series moves: its least-squares slope against time ([Trend.slope]) as a share of its mean
 * a minute ([perMinute]: −0.40 is a series that loses 40 % of its level a minute), with the slope's 95 % interval
 * [[low], [high]] in the same unit, read over [points] points spanning [seconds] s.
 *
 * The interval counts the series' own autocorrelation ([autocorrelation], τ of the residuals about the line,
 * [WindowPrecision.autocorrelationTime]): on this machine a saturated server's per-second rate wanders in spells of a
 * few seconds, and n such seconds hold n ÷ τ independent readings, so an interval that took them for n would show a
 * trend in a spell and call a short noisy stretch precise.
 */
data class Drift(
    val perMinute: Double,
    val low: Double,
    val high: Double,
    /** The series' mean, req/s. */
    val level: Double,
    val points: Int,
    val seconds: Double,
    val autocorrelation: Double,
) {
    /** The whole interval within ±[tolerance] a minute: shown to move less than that. */
    fun within(tolerance: Double): Boolean = low >= -tolerance && high <= tolerance

    /** Shown to rise: the whole interval above 0. */
    val rising: Boolean get() = low > 0

    /** Shown to fall: the whole interval below 0. */
    val falling: Boolean get() = high < 0

    companion object {
        /**
         * The drift of [rates] (req/s) read at [seconds] (each point's time, s, increasing); null with fewer than 3
         * points, a span of no time, or a mean that is not positive (nothing answered: no level to be a share of).
         */
        fun of(seconds: List<Double>, rates: List<Double>): Drift? {
            require(seconds.size == rates.size) { "${rates.size} rates against ${seconds.size} times" }
            if (rates.size < 3) return null
            val span = seconds.last() - seconds.first()
            val level = rates.average()
            if (span <= 0 || level <= 0) return null
            val line = Trend.slope(rates, seconds)
            val meanT = seconds.average()
            val residuals = rates.indices.map { rates[it] - level - line.perStep * (seconds[it] - meanT) }
            val tau = WindowPrecision.autocorrelationTime(residuals)
            val s = Trend.slope(rates, seconds, tau)
            fun perMinute(x: Double) = x * 60 / level
            return Drift(perMinute(s.perStep), perMinute(s.low), perMinute(s.high), level, rates.size, span, tau)
        }
    }
}
