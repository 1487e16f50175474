package stackbench.runner.stats

import org.apache.commons.statistics.distribution.TDistribution
import java.util.Locale
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * The ratio a ÷ b of two sides' geometric means over process means, and its interval at [confidence].
 * [low], [high] and [df] (Welch-Satterthwaite degrees of freedom) are null when the data cannot give an honest
 * interval (fewer than two processes a side, or no spread at all); [ratio] is null when there is no ratio
 * (an empty side, or a value ≤ 0 that has no logarithm). [why] says in words what was computed or refused.
 */
data class RatioInterval(
    val ratio: Double?,
    val low: Double?,
    val high: Double?,
    val df: Double?,
    val nA: Int,
    val nB: Int,
    val confidence: Double,
    val why: String,
) {
    val hasInterval: Boolean get() = low != null && high != null
}

/**
 * Intervals of a ratio with the process as the unit of replication: each value is one process's mean (the
 * windows of one JVM averaged first), so the interval carries the variation between processes that a re-run
 * shows, not the smaller variation between windows of one JVM (Kalibera & Jones, ISMM 2013; as JMH's forks).
 */
object ProcessRatio {
    /** Two processes a side: the fewest that estimate a side's variance. */
    const val MIN_PROCESSES = 2

    /**
     * a ÷ b as the ratio of geometric means, with Welch's t interval (Welch 1947) of the difference of mean
     * logarithms, exponentiated: exp(d ± t(df, (1 + confidence) / 2) · se), where d = mean ln a − mean ln b,
     * se² = s²(ln a)/nA + s²(ln b)/nB and df the Welch-Satterthwaite degrees of freedom. The t quantile is
     * Apache Commons Statistics' [TDistribution].
     *
     * Assumes the processes are independent of each other (each its own JVM, interleaved so that drift on the
     * machine falls on both sides alike) and that a process mean is log-normal around its side's level: a
     * ratio's noise is multiplicative, and the log scale makes a ratio and its inverse symmetric. Welch does not
     * assume equal variances, so two stacks with different process-to-process spreads compare honestly.
     */
    fun interval(a: List<Double>, b: List<Double>, confidence: Double = 0.95): RatioInterval {
        require(confidence > 0 && confidence < 1) { "confidence must be between 0 and 1, not $confidence" }
        fun none(ratio: Double?, why: String) = RatioInterval(ratio, null, null, null, a.size, b.size, confidence, why)
        if (a.isEmpty() || b.isEmpty()) return none(null, "no process on one side")
        if (a.any { !(it > 0) } || b.any { !(it > 0) }) return none(null, "a value ≤ 0 has no logarithm: no ratio of geometric means")
        val la = a.map { ln(it) }
        val lb = b.map { ln(it) }
        val d = la.average() - lb.average()
        val ratio = exp(d)
        if (a.size < MIN_PROCESSES || b.size < MIN_PROCESSES) {
            return none(ratio, "${minOf(a.size, b.size)} process(es) on one side; an interval needs $MIN_PROCESSES a side")
        }
        val va = variance(la) / a.size
        val vb = variance(lb) / b.size
        val se2 = va + vb
        if (se2 == 0.0) return none(ratio, "no spread between processes on either side: their variation is not known")
        val df = se2 * se2 / (va * va / (a.size - 1) + vb * vb / (b.size - 1))
        val t = TDistribution.of(df).inverseCumulativeProbability((1 + confidence) / 2)
        val half = t * sqrt(se2)
        return RatioInterval(ratio, exp(d - half), exp(d + half), df, a.size, b.size, confidence,
            "Welch t on logarithms of ${a.size} and ${b.size} process means, df = ${"%.1f".format(Locale.ROOT, df)}, " +
                "${"%.1f".format(Locale.ROOT, confidence * 100)} %")
    }

    private fun variance(x: List<Double>): Double {
        val m = x.average()
        return x.sumOf { (it - m) * (it - m) } / (x.size - 1)
    }
}
