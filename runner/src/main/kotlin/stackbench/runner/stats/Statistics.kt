package stackbench.runner.stats

import org.apache.commons.statistics.descriptive.Median
import org.apache.commons.statistics.descriptive.StandardDeviation

/**
 * A figure over a configuration's windows or processes, described: its median and its range. No interval: whether two
 * configurations differ is the decision engine's question ([Decisions], over processes), never a view's.
 */
data class Estimate(
    val n: Int,
    val median: Double,
    /** (max - min) / median. */
    val spread: Double,
    val noisy: Boolean,
    val values: List<Double>,
) {
    val min: Double get() = values.min()
    val max: Double get() = values.max()
}

/** The descriptive statistics a benchmark's tables need, on Apache Commons Statistics: medians, ranges, variation. */
object Statistics {
    /** The fewest repetitions (processes) a design that estimates a spread asks for by default. */
    const val MIN_FOR_INTERVAL = 3
    const val NOISY_SPREAD = 0.20
    const val ALPHA = 0.05

    fun median(values: List<Double>): Double = Median.withDefaults().evaluate(values.toDoubleArray())

    /** The coefficient of variation: sample standard deviation (n − 1) ÷ mean; null for fewer than 2 values or a mean of 0. */
    fun variation(values: List<Double>): Double? {
        if (values.size < 2) return null
        val mean = values.average()
        return if (mean == 0.0) null else StandardDeviation.of(*values.toDoubleArray()).getAsDouble() / mean
    }

    fun estimate(values: List<Double>): Estimate {
        require(values.isNotEmpty()) { "no values" }
        val median = median(values)
        val spread = if (median == 0.0) 0.0 else (values.max() - values.min()) / median
        return Estimate(values.size, median, spread, values.size >= MIN_FOR_INTERVAL && spread > NOISY_SPREAD, values)
    }
}
