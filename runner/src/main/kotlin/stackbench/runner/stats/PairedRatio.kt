package stackbench.runner.stats

import org.apache.commons.statistics.distribution.TDistribution
import java.util.Locale
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * The ratio of paired measurements: each pair one window of a treatment (e.g. profiled) against the windows beside it
 * in the same process without it, so that what drifts within the process (the JIT, the heap, the machine) falls on
 * both alike and the pair's log ratio holds the treatment's effect and the noise between neighbouring windows.
 */
object PairedRatio {
    /**
     * The geometric mean of the pairs' ratios, exp(mean of [logRatios]), with the one-sample t interval of that mean
     * exponentiated: exp(m ± t(n − 1, (1 + confidence) / 2) · s / √n · √[inflation]), the log ratios assumed normal.
     *
     * Pairs that share a window are not independent: in u₁ p₂ u₃ p₄ u₅, each p against the mean of the u beside it,
     * u₃ is in both pairs. With the windows' noise independent and alike, neighbouring pairs then correlate at
     * (σ²/4) ÷ (σ² · 3/2) = 1/6, and the variance of the mean of a chain of n pairs is (s²/n)(1 + 2 · (1/6)(n − 1)/n),
     * at most 4/3 of the independent figure: pass [SHARED_NEIGHBOURS] as [inflation] for such chains.
     */
    fun interval(logRatios: List<Double>, confidence: Double = 0.95, inflation: Double = 1.0): RatioInterval {
        require(confidence > 0 && confidence < 1) { "confidence must be between 0 and 1, not $confidence" }
        val n = logRatios.size
        fun none(ratio: Double?, why: String) = RatioInterval(ratio, null, null, null, n, n, confidence, why)
        if (n == 0) return none(null, "no pair")
        val m = logRatios.average()
        if (n < 2) return none(exp(m), "1 pair; an interval needs 2")
        val s2 = logRatios.sumOf { (it - m) * (it - m) } / (n - 1)
        if (s2 == 0.0) return none(exp(m), "no spread between the pairs: their variation is not known")
        val t = TDistribution.of((n - 1).toDouble()).inverseCumulativeProbability((1 + confidence) / 2)
        val half = t * sqrt(s2 / n * inflation)
        return RatioInterval(exp(m), exp(m - half), exp(m + half), (n - 1).toDouble(), n, n, confidence,
            "one-sample t on the logarithms of $n paired ratios, df = ${n - 1}, ${"%.1f".format(Locale.ROOT, confidence * 100)} %" +
                (if (inflation != 1.0) ", variance × ${"%.3f".format(Locale.ROOT, inflation)} for pairs that share a window" else ""))
    }

    /** The bound of the variance's inflation for a chain of pairs that share their neighbours (see [interval]). */
    const val SHARED_NEIGHBOURS = 4.0 / 3.0

    /**
     * The fewest pairs (2 to [max]) whose interval at [confidence] would decide a true ratio [ratio] against the band
     * ±[threshold] if the pairs' log ratios varied with variance [variance]: beyond the band for a ratio outside it,
     * inside it for one within it. The expected half-width, as [Components.processesNeeded]: half the runs at that size
     * decide. Null when even [max] would not.
     */
    fun pairsNeeded(variance: Double, ratio: Double, threshold: Double, confidence: Double, max: Int = 20): Int? {
        require(variance >= 0) { "a variance is not negative: $variance" }
        val r = ln(ratio)
        for (n in 2..max) {
            val half = TDistribution.of((n - 1).toDouble()).inverseCumulativeProbability((1 + confidence) / 2) * sqrt(variance / n)
            if (BandDecision.wouldDecide(r, half, threshold)) return n
        }
        return null
    }
}
