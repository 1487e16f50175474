package stackbench.runner.stats

import kotlin.math.abs
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * Shifts in the mean of a series, found by PELT (Killick, Fearnhead & Eckley 2012, "Optimal detection of
 * changepoints with a linear computational cost"), the method Barrett et al. ("Virtual Machine Warmup Blows
 * Hot and Cold", OOPSLA 2017) used to split benchmark run series into segments.
 *
 * The segmentation chosen is the one that minimises the sum, over segments, of the squared deviations from
 * the segment's own mean, plus [penalty] for every changepoint. PELT finds that minimum exactly; its pruning
 * only skips candidates that can no longer be the last changepoint of an optimal segmentation.
 *
 * The default penalty is `5 · σ² · ln(n)` ([PENALTY_FACTOR]), σ estimated from the series itself, robustly
 * (see [noise]), so that the jumps being looked for do not inflate it. A mean-only cost is in the series' own
 * squared units, so its penalty has to carry σ² (Barrett et al. used the scale-free mean-and-variance cost
 * with a manual `15 · ln(n)` instead). Why 5 and not BIC's 2 (two parameters per change, where and the new
 * mean, with σ known) or the modified BIC's 3 (Zhang & Siegmund 2007, the R changepoint package's default):
 * simulated on pure Gaussian noise with σ from the MAD of the differences, `2 · ln(n)` puts a false change in
 * 27 % of 20-point and 23 % of 30-point series (13 % even with σ known: the best of n − 1 splits is the
 * maximum of many tests, and a MAD from 20 points is itself noisy), `3 · ln(n)` in 13 % and 10 %, `4 · ln(n)`
 * in 7 % and 5 %, `5 · ln(n)` in 5 % and 2 % (0.2 % at 60 points). At 5 a step of 3 σ a third of the way into
 * 30 points is still found, within a point of where it is, 95 % of the time (2 σ: two times in three).
 * Windows here are 10 to 30 seconds long, so the small-sample end is the one that matters.
 */
object Changepoints {
    /** Points [from] (inclusive) to [to] (exclusive) of a series, and their [mean]. */
    data class Segment(val from: Int, val to: Int, val mean: Double) {
        val length: Int get() = to - from
    }

    /** The default penalty is this × σ² × ln(n); see the class comment for why 5. */
    const val PENALTY_FACTOR = 5.0

    /** Median absolute deviation of a standard normal: MAD ÷ this estimates σ. */
    private const val MAD_NORMAL = 0.6745

    /**
     * The indices where a new segment starts, ascending, never 0. Every segment has at least [minSegment]
     * points, so a series of fewer than `2 · minSegment` points has no changepoints. [penalty] is the cost of
     * one changepoint in squared units of the series; null takes the default, `5 · σ² · ln(n)` with σ from
     * [noise]. A constant series has none.
     */
    fun find(xs: List<Double>, minSegment: Int = 2, penalty: Double? = null): List<Int> {
        require(minSegment >= 1) { "minSegment must be at least 1, not $minSegment" }
        require(penalty == null || (penalty >= 0 && penalty.isFinite())) { "penalty must be finite and not negative, not $penalty" }
        require(xs.all { it.isFinite() }) { "the series has a value that is not finite" }
        val n = xs.size
        if (n < 2 * minSegment) return emptyList()
        if (xs.all { it == xs[0] }) return emptyList()
        val beta = penalty ?: defaultPenalty(xs)
        return pelt(xs, minSegment, beta)
    }

    /** The series cut at [find]'s changepoints, each segment with its mean. An empty series has no segments. */
    fun segments(xs: List<Double>, minSegment: Int = 2, penalty: Double? = null): List<Segment> {
        if (xs.isEmpty()) return emptyList()
        val bounds = listOf(0) + find(xs, minSegment, penalty) + xs.size
        return bounds.zipWithNext { from, to -> Segment(from, to, xs.subList(from, to).average()) }
    }

    /**
     * The default penalty for [xs]: `5 · σ² · ln(n)`, σ from [noise]. When σ is 0 (a noise-free series that is
     * not constant: a clean step, a straight line), a billionth of the series' squared deviations instead:
     * exact changes pay it easily, the rounding of a sum of squares never does.
     */
    fun defaultPenalty(xs: List<Double>): Double {
        val sigma = noise(xs)
        if (sigma > 0) return PENALTY_FACTOR * sigma * sigma * ln(xs.size.toDouble())
        val mean = xs.average()
        return 1e-9 * xs.sumOf { (it - mean) * (it - mean) }
    }

    /**
     * The noise σ of a series whose mean shifts now and then: the MAD of its first differences
     * ÷ (√2 · 0.6745). A difference of two neighbours carries the noise of both (hence √2) and a jump shows in
     * one difference only, which the median ignores. When more than half the differences are equal the MAD
     * is 0: either the values are coarse (small counts, 100, 100, 99, 100, 101, ...), whose real noise the
     * standard deviation of the differences ÷ √2 measures, or the series has no noise at all, as a clean step
     * does, whose one jump would be mistaken for noise; so the difference furthest from the median is left
     * out of that standard deviation. 0 for a series without noise: constant, a straight line, a line with
     * one clean break, or fewer than 3 points.
     */
    fun noise(xs: List<Double>): Double {
        if (xs.size < 3) return 0.0
        val diffs = xs.zipWithNext { a, b -> b - a }
        val med = Statistics.median(diffs)
        val mad = Statistics.median(diffs.map { abs(it - med) })
        if (mad > 0) return mad / (sqrt(2.0) * MAD_NORMAL)
        val furthest = diffs.indices.maxBy { abs(diffs[it] - med) }
        return sd(diffs.filterIndexed { i, _ -> i != furthest }) / sqrt(2.0)
    }

    private fun sd(xs: List<Double>): Double {
        if (xs.size < 2) return 0.0
        val mean = xs.average()
        return sqrt(xs.sumOf { (it - mean) * (it - mean) } / (xs.size - 1))
    }

    /**
     * PELT: `F(t) = min over s of F(s) + cost(s, t) + β`, with `F(0) = −β` and `cost` the squared deviations of
     * points s until t from their mean. A candidate s with `F(s) + cost(s, t) > F(t)` can never beat t as the
     * last changepoint of a longer prefix (splitting never raises the cost), but t may only serve as one
     * [minSegment] points later; so s is dropped only then, which keeps the result exact with a minimum
     * segment length. Ties go to the earliest s.
     */
    private fun pelt(xs: List<Double>, minSegment: Int, beta: Double): List<Int> {
        val n = xs.size
        val centre = xs.average() // centred prefix sums lose less to cancellation
        val s1 = DoubleArray(n + 1)
        val s2 = DoubleArray(n + 1)
        for (i in 0 until n) {
            val v = xs[i] - centre
            s1[i + 1] = s1[i] + v
            s2[i + 1] = s2[i] + v * v
        }
        fun cost(from: Int, to: Int): Double {
            val sum = s1[to] - s1[from]
            return maxOf(0.0, s2[to] - s2[from] - sum * sum / (to - from))
        }

        val f = DoubleArray(n + 1) { Double.POSITIVE_INFINITY }
        f[0] = -beta
        val last = IntArray(n + 1)
        val candidates = ArrayList<Int>().apply { add(0) }
        val failedAt = IntArray(n + 1) { -1 } // the t at which a candidate first lost to F(t)
        for (t in minSegment..n) {
            if (t - minSegment >= minSegment) candidates.add(t - minSegment)
            var best = Double.POSITIVE_INFINITY
            var bestS = 0
            for (s in candidates) {
                val v = f[s] + cost(s, t) + beta
                if (v < best) {
                    best = v
                    bestS = s
                }
            }
            f[t] = best
            last[t] = bestS
            for (s in candidates) if (failedAt[s] < 0 && f[s] + cost(s, t) > f[t]) failedAt[s] = t
            candidates.removeAll { s -> failedAt[s] >= 0 && t - failedAt[s] >= minSegment - 1 }
        }

        val changes = ArrayList<Int>()
        var t = n
        while (t > 0) {
            val s = last[t]
            if (s > 0) changes.add(s)
            t = s
        }
        return changes.reversed()
    }
}
