package stackbench.runner.stats

import java.util.Random

/**
 * Synthetic throughput series for the tests: levels held for a number of seconds (or ramps), each point the
 * level times (1 + [noise] · a standard Gaussian) from a [Random] seeded with [seed], so every run is the same.
 */
class Series(private val seed: Long, private val noise: Double) {
    private val points = ArrayList<Double>()

    /** [seconds] points at [level]. */
    fun hold(level: Double, seconds: Int) = apply { repeat(seconds) { points.add(level) } }

    /** [seconds] points climbing in equal steps from [from] to just below [to]. */
    fun ramp(from: Double, to: Double, seconds: Int) = apply {
        repeat(seconds) { points.add(from + (to - from) * it / seconds) }
    }

    fun build(): List<Double> {
        val rng = Random(seed)
        return points.map { it * (1 + noise * rng.nextGaussian()) }
    }
}
