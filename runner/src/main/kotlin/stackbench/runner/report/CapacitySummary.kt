package stackbench.runner.report

import stackbench.runner.results.CapacityResult
import stackbench.runner.stats.Estimate
import stackbench.runner.stats.Statistics

/** The repetitions of one capacity search taken together: how many held, and their median and range. */
class CapacitySummary(val searches: List<CapacityResult>) {
    val first: CapacityResult get() = searches.first()
    val held: List<Double> = searches.mapNotNull { it.capacity }
    /** Null when no repetition held the target. */
    val estimate: Estimate? = held.takeIf { it.isNotEmpty() }?.let { Statistics.estimate(it) }

    companion object {
        /** One summary per searched configuration, in the order the searches ran. */
        fun of(searches: List<CapacityResult>): List<CapacitySummary> = searches.groupBy { it.configKey }.values.map(::CapacitySummary)
    }
}
