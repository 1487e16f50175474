package stackbench.runner.stats

import org.apache.commons.math3.random.MersenneTwister
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation
import org.apache.commons.math3.stat.descriptive.rank.Median
import org.apache.commons.math3.stat.inference.MannWhitneyUTest

/** A figure over repetitions: its median, a 95 % bootstrap interval, and whether it spreads too much to trust. */
data class Estimate(
    val n: Int,
    val median: Double,
    /** 95 % bootstrap interval of the median; null with fewer than [Statistics.MIN_FOR_INTERVAL] values. */
    val low: Double?,
    val high: Double?,
    /** (max - min) / median. */
    val spread: Double,
    val noisy: Boolean,
    val values: List<Double>,
)

/** A change between two sets of repetitions, and whether the repetitions support calling it real. */
data class Change(
    val before: Estimate,
    val after: Estimate,
    /** after.median / before.median - 1 */
    val relative: Double,
    /** 95 % bootstrap interval of the relative change of medians; null when either side has too few values. */
    val low: Double?,
    val high: Double?,
    /** Mann-Whitney U two-sided p-value; null when either side has too few values. */
    val pValue: Double?,
    val verdict: Verdict,
)

enum class Verdict(val text: String) {
    BETTER("higher, and the repetitions support it"),
    WORSE("lower, and the repetitions support it"),
    NO_CHANGE("no change the repetitions can tell"),
    CANNOT_TELL("cannot tell: too few repetitions"),
}

/**
 * The statistics a benchmark needs, on commons-math3: medians, percentile-bootstrap intervals with a fixed
 * seed (so a report renders the same twice), and the Mann-Whitney U test.
 */
object Statistics {
    const val MIN_FOR_INTERVAL = 3
    const val NOISY_SPREAD = 0.20
    const val RESAMPLES = 10_000
    const val ALPHA = 0.05

    fun median(values: List<Double>): Double = Median().evaluate(values.toDoubleArray())

    /** The coefficient of variation: sample standard deviation (n − 1) ÷ mean; null for fewer than 2 values or a mean of 0. */
    fun variation(values: List<Double>): Double? {
        if (values.size < 2) return null
        val mean = values.average()
        return if (mean == 0.0) null else StandardDeviation().evaluate(values.toDoubleArray()) / mean
    }

    fun estimate(values: List<Double>, seed: Long = 1): Estimate {
        require(values.isNotEmpty()) { "no values" }
        val median = median(values)
        val spread = if (median == 0.0) 0.0 else (values.max() - values.min()) / median
        if (values.size < MIN_FOR_INTERVAL) return Estimate(values.size, median, null, null, spread, false, values)
        val (low, high) = interval(bootstrap(values, seed) { median(it) })
        return Estimate(values.size, median, low, high, spread, spread > NOISY_SPREAD, values)
    }

    /** [after] against [before]: relative change of medians, its bootstrap interval, Mann-Whitney p, verdict. */
    fun change(before: List<Double>, after: List<Double>, seed: Long = 1): Change {
        val b = estimate(before, seed)
        val a = estimate(after, seed + 1)
        val relative = if (b.median == 0.0) 0.0 else a.median / b.median - 1
        if (before.size < MIN_FOR_INTERVAL || after.size < MIN_FOR_INTERVAL) {
            return Change(b, a, relative, null, null, null, Verdict.CANNOT_TELL)
        }
        val rng = MersenneTwister(seed)
        val diffs = DoubleArray(RESAMPLES) {
            val mb = median(resample(before, rng))
            val ma = median(resample(after, rng))
            if (mb == 0.0) 0.0 else ma / mb - 1
        }
        val (low, high) = interval(diffs)
        val p = MannWhitneyUTest().mannWhitneyUTest(before.toDoubleArray(), after.toDoubleArray())
        // significant only when both agree: the interval excludes zero and the rank test rejects
        val verdict = when {
            low > 0 && p < ALPHA -> Verdict.BETTER
            high < 0 && p < ALPHA -> Verdict.WORSE
            else -> Verdict.NO_CHANGE
        }
        return Change(b, a, relative, low, high, p, verdict)
    }

    private fun bootstrap(values: List<Double>, seed: Long, statistic: (List<Double>) -> Double): DoubleArray {
        val rng = MersenneTwister(seed)
        return DoubleArray(RESAMPLES) { statistic(resample(values, rng)) }
    }

    private fun resample(values: List<Double>, rng: MersenneTwister) = List(values.size) { values[rng.nextInt(values.size)] }

    private fun interval(samples: DoubleArray): Pair<Double, Double> {
        val sorted = samples.sorted()
        return sorted[(sorted.size * 0.025).toInt()] to sorted[(sorted.size * 0.975).toInt().coerceAtMost(sorted.size - 1)]
    }
}
