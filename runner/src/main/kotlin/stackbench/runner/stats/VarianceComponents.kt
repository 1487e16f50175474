package stackbench.runner.stats

import org.apache.commons.statistics.distribution.TDistribution
import kotlin.math.ceil
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * A figure's variation in its two components, with the process (JVM) as the unit of replication (Kalibera & Jones,
 * ISMM 2013; one-way random effects): [between] processes (each JVM settles at its own level) and [within] one
 * process, between its windows. Both are variances of natural logarithms, so their square roots read as relative
 * spreads (0.02 ≈ 2 %). [within] is null when no process held two windows: the components cannot be told apart, and
 * [between] then holds both (an upper bound of the processes' own part).
 */
data class VarianceComponents(
    val processes: Int,
    /** The harmonic mean of the windows a process held. */
    val windowsPerProcess: Double,
    val within: Double?,
    val between: Double,
) {
    /** The variance of one process's mean of [windows] windows, on the log scale. */
    fun processMean(windows: Double = windowsPerProcess): Double = between + (within ?: 0.0) / windows
}

object Components {

    /** The components of [processes] (each a list of one process's window values, all > 0); null below 2 processes. */
    fun of(processes: List<List<Double>>): VarianceComponents? {
        val logs = processes.filter { it.isNotEmpty() }.map { p -> p.map { ln(it) } }
        if (logs.size < 2) return null
        val means = logs.map { it.average() }
        val dfWithin = logs.sumOf { it.size - 1 }
        val within = if (dfWithin == 0) null else logs.zip(means).sumOf { (p, m) -> p.sumOf { (it - m) * (it - m) } } / dfWithin
        val harmonic = logs.size / logs.sumOf { 1.0 / it.size }
        val grand = means.average()
        val ofMeans = means.sumOf { (it - grand) * (it - grand) } / (means.size - 1)
        // the spread of process means holds the within part once more, divided by the windows that averaged it
        val between = (ofMeans - (within ?: 0.0) / harmonic).coerceAtLeast(0.0)
        return VarianceComponents(logs.size, harmonic, within, between)
    }

    /**
     * The windows a process should hold to buy the most precision for the machine time (Kalibera & Jones's allocation):
     * sqrt(cost of a process ÷ cost of a window × within ÷ between), at least 1; null when the components are not
     * separated. A new process costs its start, priming and warm-up, a window its own length and the quiet wait.
     */
    fun windowsPerProcess(c: VarianceComponents, processCostS: Double, windowCostS: Double): Int? {
        val within = c.within ?: return null
        if (processCostS <= 0 || windowCostS <= 0) return null
        if (c.between <= 0.0) return if (within <= 0.0) 1 else Int.MAX_VALUE
        return maxOf(1, ceil(sqrt(processCostS / windowCostS * within / c.between) - 1e-9).toInt())
    }

    /**
     * The fewest processes a side (2 to [max]) whose interval of a ÷ b, at [confidence], would decide a true ratio
     * [ratio] against the band ±[threshold] if the sides varied as [a] and [b] did, with [windows] windows a process:
     * beyond the band for a ratio outside it, inside it for one within it. Welch's interval on log process means, as the
     * suite comparisons ([ProcessRatio]); the expected half-width, not a guarantee: half the runs at that size decide.
     * Null when even [max] would not.
     */
    fun processesNeeded(
        a: VarianceComponents, b: VarianceComponents, ratio: Double, threshold: Double, confidence: Double,
        windows: Double = 1.0, max: Int = 20,
    ): Int? {
        val r = ln(ratio)
        val va = a.processMean(windows)
        val vb = b.processMean(windows)
        for (n in 2..max) {
            val se2 = (va + vb) / n
            if (se2 == 0.0) return n
            val df = se2 * se2 / ((va / n) * (va / n) / (n - 1) + (vb / n) * (vb / n) / (n - 1))
            val half = TDistribution.of(df).inverseCumulativeProbability((1 + confidence) / 2) * sqrt(se2)
            if (BandDecision.wouldDecide(r, half, threshold)) return n
        }
        return null
    }
}
