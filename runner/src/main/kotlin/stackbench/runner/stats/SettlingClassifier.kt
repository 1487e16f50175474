package stackbench.runner.stats

import java.util.Locale
import kotlin.math.abs
import kotlin.math.sqrt

/** The course an app process's throughput took over a warm-up. */
enum class SettlingKind(val id: String) {
    /** Its last level moved less than [SettlingClassifier.MAX_DRIFT] a minute, shown by the drift's whole interval. */
    SETTLED("settled"),

    /** Still getting faster: the drift's whole interval above 0. */
    RISING("rising"),

    /** Getting slower: the drift's whole interval below 0. */
    FALLING("falling"),

    /** No trend shown either way, and none ruled out: it swings more than its drift can be read through. */
    OSCILLATING("oscillating"),
}

/**
 * A throughput series classed ([SettlingClassifier]): its [kind], read over the points from [from] on (where its last
 * level began, or its last [SettlingClassifier.MIN_POINTS] points when the level began later), which start
 * [fromSeconds] into the series; the [drift] there, and the [scatter] there (standard deviation over mean).
 */
data class SettlingClass(
    val kind: SettlingKind,
    val from: Int,
    val fromSeconds: Double,
    val drift: Drift,
    val scatter: Double,
    /** The stretch's first and last three slices' medians (req/s): where it went from and to. */
    val startRate: Double = drift.level,
    val endRate: Double = drift.level,
) {
    /** A few words for a table: `settled after 12 s`, `falling 38 %/min`, `oscillating ±21 %`. */
    val label: String get() = when (kind) {
        SettlingKind.SETTLED -> "settled after ${secs(fromSeconds)} s"
        SettlingKind.RISING -> "rising ${pct(drift.perMinute)} %/min"
        SettlingKind.FALLING -> "falling ${pct(-drift.perMinute)} %/min"
        SettlingKind.OSCILLATING -> "oscillating ±${pct(scatter)} %"
    }

    /** One sentence with the figures it rests on. */
    val text: String get() {
        val over = "over its last ${drift.points} slices (${secs(drift.seconds)} s) at ${rate(drift.level)}"
        val interval = "95 %: ${signed(drift.low)} to ${signed(drift.high)} % a minute"
        return when (kind) {
            SettlingKind.SETTLED -> "settled after ${secs(fromSeconds)} s: $over it drifted ${signed(drift.perMinute)} % a minute ($interval, " +
                "within ±${pct(SettlingClassifier.MAX_DRIFT)} %)"
            SettlingKind.RISING -> "still rising at ${pct(drift.perMinute)} % a minute $over ($interval)"
            SettlingKind.FALLING -> "falling at ${pct(-drift.perMinute)} % a minute $over, from ${rate(startRate)} to ${rate(endRate)} ($interval)"
            SettlingKind.OSCILLATING -> "oscillating: $over it swung ±${pct(scatter)} % (standard deviation over mean) with no trend shown, " +
                "and none beyond ±${pct(SettlingClassifier.MAX_DRIFT)} % a minute ruled out ($interval)"
        }
    }

    private fun pct(x: Double) = "%.0f".format(Locale.ROOT, abs(x) * 100)
    private fun signed(x: Double) = "%+.0f".format(Locale.ROOT, x * 100)
    private fun secs(x: Double) = "%.0f".format(Locale.ROOT, x)
    private fun rate(x: Double) = if (x >= 100) "%,.0f req/s".format(Locale.ROOT, x) else "%.1f req/s".format(Locale.ROOT, x)
}

/**
 * Classes a warm-up's throughput series (the app's own answers a slice) by what it does, not by what the JIT does:
 * from where its last level began ([WindowClassifier.levelStart], at least the last [MIN_POINTS] points), its drift
 * ([Drift]: the least-squares slope a minute as a share of the level, with its 95 % interval, autocorrelation counted)
 * is
 * - [SettlingKind.SETTLED] when the whole interval lies within ±[MAX_DRIFT] a minute: shown to move less than that;
 * - else [SettlingKind.RISING] or [SettlingKind.FALLING] when the whole interval lies above or below 0;
 * - else [SettlingKind.FALLING] when the stretch from its fastest level on (the changepoint segment with the highest
 *   mean) falls by its whole interval: a service that slows as it runs, with pauses at 0 among its slices, scatters
 *   too much for its last dozen slices to show the fall that its whole minute shows;
 * - else [SettlingKind.OSCILLATING]: it swings too much for its drift to be read either way.
 *
 * The test asks for evidence of a level, not the absence of evidence of a trend: a short noisy stretch shows no
 * significant slope because it shows nothing, and a warm-up is judged again every slice, so a rule that took "no
 * trend shown" for steady would, sooner or later, stop on a falling series at one of its noisier moments. Pure.
 */
object SettlingClassifier {
    /**
     * The fewest points a class is read from: twice the warm-up's six slices, over which the steps of a closed load
     * that climbs in waves add up to a slope (the warm-up's light-work rule reads the same span).
     */
    const val MIN_POINTS = 12

    /**
     * The most a settled level may drift, a share of it a minute. 10 % a minute moves a 30 s window's level by 5 % from
     * its first second to its last: the 5 % within which the lab counts two levels as one ([LEVEL_WITHIN]).
     */
    const val MAX_DRIFT = 0.10

    /** A leading point of the last level further than this from the level's median is still on the way to it (as the warm-up's). */
    const val LEVEL_WITHIN = 0.05

    /**
     * The class of [rates] (req/s, one a slice) whose slices end at [ends] (seconds from the series' start, increasing);
     * null with fewer than [MIN_POINTS] slices, or nothing answered.
     */
    fun classify(ends: List<Double>, rates: List<Double>): SettlingClass? {
        require(ends.size == rates.size) { "${rates.size} rates against ${ends.size} slice ends" }
        val n = rates.size
        if (n < MIN_POINTS) return null
        // each slice read at its middle: slices of a second run 1.0-1.4 s where the app's channel answers late
        val starts = listOf(0.0) + ends.dropLast(1)
        val middles = ends.indices.map { (starts[it] + ends[it]) / 2 }
        fun over(from: Int, kind: (Drift) -> SettlingKind?): SettlingClass? {
            val tail = rates.subList(from, n)
            val drift = Drift.of(middles.subList(from, n), tail) ?: return null
            val mean = tail.average()
            val scatter = sqrt(tail.sumOf { (it - mean) * (it - mean) } / (tail.size - 1)) / mean
            return kind(drift)?.let { SettlingClass(it, from, starts[from], drift, scatter, Statistics.median(tail.take(3)), Statistics.median(tail.takeLast(3))) }
        }
        val segments = WindowClassifier.classify(rates, tail = 0.0, excursion = 0.0).segments
        val level = minOf(WindowClassifier.levelStart(rates, LEVEL_WITHIN) ?: 0, n - MIN_POINTS)
        val now = over(level) { d ->
            when {
                d.within(MAX_DRIFT) -> SettlingKind.SETTLED
                d.rising -> SettlingKind.RISING
                d.falling -> SettlingKind.FALLING
                else -> SettlingKind.OSCILLATING
            }
        } ?: return null
        if (now.kind != SettlingKind.OSCILLATING) return now
        // too scattered to read over its last level: a fall shows over the longer stretch since its fastest level (pauses
        // at 0 among its slices widen a short stretch's interval past any trend); a rise is not read there, as every
        // warm-up begins cold
        val peak = minOf(segments.maxBy { it.mean }.from, n - MIN_POINTS)
        return (if (peak < level) over(peak) { d -> SettlingKind.FALLING.takeIf { d.falling } } else null) ?: now
    }
}
