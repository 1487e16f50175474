package stackbench.runner.plan

/**
 * Decides a capacity search's next offered rate from the steps so far: double the rate from the start
 * until the target breaks (or the max rate holds), then bisect between the highest rate that held and the
 * lowest that broke, until they are within the precision of each other. Pure, so it is tested alone.
 */
class CapacityPolicy(private val start: Double, private val max: Double, private val precision: Double) {
    init {
        require(start > 0 && max > start && precision > 0) { "capacity search needs 0 < start < max and a positive precision" }
    }

    data class Step(val rate: Double, val held: Boolean)

    /** The next rate to try, or null when the search is over. */
    fun next(steps: List<Step>): Double? {
        if (steps.isEmpty()) return start
        val held = steps.filter { it.held }.maxOfOrNull { it.rate }
        val broke = steps.filter { !it.held }.minOfOrNull { it.rate }
        return when {
            broke == null -> if (held!! >= max) null else minOf(held * 2, max)
            held == null -> null // even the start rate broke the target
            (broke - held) / held <= precision -> null
            else -> round((held + broke) / 2)
        }
    }

    /** The highest rate that held, and the lowest that broke. */
    fun outcome(steps: List<Step>): Pair<Double?, Double?> =
        steps.filter { it.held }.maxOfOrNull { it.rate } to steps.filter { !it.held }.minOfOrNull { it.rate }

    private fun round(rate: Double) = if (rate >= 100) Math.round(rate).toDouble() else Math.round(rate * 10) / 10.0
}
