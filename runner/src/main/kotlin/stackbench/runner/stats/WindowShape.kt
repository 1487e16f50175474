package stackbench.runner.stats

import java.util.Locale
import kotlin.math.abs
import kotlin.math.ln

/** The shape of a throughput series (completions per second, higher is faster) over a measurement window. */
enum class WindowShape(val id: String, val text: String) {
    FLAT("flat", "one level throughout, or left only briefly: steady from the start"),
    WARMING("warming", "got faster, then settled at its fastest level"),
    SLOWING("slowing", "settled below an earlier, faster level"),
    NO_STEADY_STATE("no-steady-state", "still changing near the end, or too short: no steady state shown"),
}

/**
 * A throughput series classified: its [shape], the [segments] it was read from (after merging practically
 * equal neighbours), the second from which it is steady ([steadyFrom], the start of the last segment; null
 * when no steady state was shown), and a [reason] in one sentence with the figures.
 */
data class WindowClass(
    val shape: WindowShape,
    val segments: List<Changepoints.Segment>,
    val steadyFrom: Int?,
    val reason: String,
)

/**
 * Classifies a per-second throughput series the way Barrett et al. ("Virtual Machine Warmup Blows Hot and
 * Cold", OOPSLA 2017) classified run series: cut it into segments of constant mean ([Changepoints]), merge
 * neighbours whose means are practically the same, then read the shape from the segments that remain.
 *
 * The cuts are found on ln(1 + x), the means are those of x. Throughput's noise grows with its level (2 % of
 * 4,800 req/s is twice 2 % of 2,400), and [Changepoints] estimates one σ for the whole series: on x itself,
 * a series that warms from 1,300 to 4,800 req/s gets the σ of its slow, quiet seconds, and its fast plateau's
 * ordinary noise is cut into spurious segments. On the logarithm a relative noise is the same size at every
 * level, as the [equivalence] already is; the 1 keeps a second with no completions finite.
 */
object WindowClassifier {
    /** The fewest points that can show a steady state: two segments of [Changepoints]' minimum of two. */
    const val MIN_POINTS = 4

    /**
     * The shape of [xs] (completions per second, not negative). Neighbouring segments whose means differ by
     * less than [equivalence] × the series' mean are merged (closest pair first, means recomputed), as
     * practically one level. Then: one segment is
     * [WindowShape.FLAT]; a series that begins at the level it ends on (first and last segments within the
     * equivalence) and whose segments away from that level move its mean by less than [excursion] of it is
     * [WindowShape.FLAT] too, wherever it left the level: it held one level, left briefly (a GC pause, a stolen
     * second), which a repetition samples like any other noise, and it did not warm up inside the window, which
     * began at its final level; a last segment starting within the final [tail] share of the series is
     * [WindowShape.NO_STEADY_STATE] (it changed near the end, so no steady state was shown); otherwise a last
     * segment at least as fast as every earlier one is [WindowShape.WARMING]; else [WindowShape.SLOWING]. Fewer than
     * [MIN_POINTS] points cannot show a steady state: [WindowShape.NO_STEADY_STATE].
     *
     * A gradual climb has no single point where it stops: its last seconds, within the noise and the
     * [equivalence] of the level it reaches, count as that level, so [WindowClass.steadyFrom] can come a
     * second or two before the climb's very end.
     */
    fun classify(xs: List<Double>, equivalence: Double = 0.05, tail: Double = 0.25, excursion: Double = EXCURSION): WindowClass {
        require(equivalence >= 0) { "equivalence must not be negative, not $equivalence" }
        require(excursion >= 0) { "excursion must not be negative, not $excursion" }
        require(tail >= 0 && tail < 1) { "tail must be in [0, 1), not $tail" }
        require(xs.all { it >= 0 && it.isFinite() }) { "a throughput is finite and not negative" }
        val n = xs.size
        if (n < MIN_POINTS) {
            return WindowClass(
                WindowShape.NO_STEADY_STATE, Changepoints.segments(xs), null,
                "$n s: too few points to show a steady state (need $MIN_POINTS)",
            )
        }
        val logs = xs.map { ln(1 + it) }
        val found = segments(xs, Changepoints.find(logs, penalty = penalty(logs, xs.average())))
        val within = equivalence * abs(xs.average())
        val segments = merge(xs, found, within)
        val merged = found.size - segments.size
        val last = segments.last()
        val story = describe(segments, merged, equivalence)
        if (segments.size == 1) return WindowClass(WindowShape.FLAT, segments, 0, "$story: flat, steady from second 0")
        // before the tail: a window that came back to the level it began at has shown that level, wherever it left it
        excursions(xs, segments, within, excursion)?.let { away ->
            return WindowClass(WindowShape.FLAT, segments, 0, "$story: it began and ended at ${rate(last.mean)} and $away: flat, steady from second 0")
        }
        if (last.from >= n * (1 - tail)) {
            return WindowClass(
                WindowShape.NO_STEADY_STATE, segments, null,
                "$story: the last change is in the final ${pct(tail)} of the $n s, so no steady state is shown",
            )
        }
        val fastestBefore = segments.dropLast(1).maxOf { it.mean }
        return if (last.mean >= fastestBefore) {
            WindowClass(WindowShape.WARMING, segments, last.from, "$story, the fastest: warming, steady from second ${last.from}")
        } else {
            WindowClass(
                WindowShape.SLOWING, segments, last.from,
                "$story, below the earlier ${rate(fastestBefore)}: slowing, steady from second ${last.from}",
            )
        }
    }

    /**
     * Where the last level of [rates] begins: the changepoint analysis's last segment, less its leading points that are
     * still more than [within] (a share) from the level's median (the tail of a ramp, which the segmentation may count
     * into the level). A brief excursion counts as a change here (`excursion = 0`): a warm-up wants the level as it last
     * began. Null when no level shows.
     */
    fun levelStart(rates: List<Double>, within: Double): Int? {
        var from = classify(rates, tail = 0.0, excursion = 0.0).steadyFrom ?: return null
        val level = Statistics.median(rates.subList(from, rates.size))
        while (from < rates.size - 1 && abs(rates[from] - level) > within * level) from++
        return from
    }

    /** Excursions from a window's one level that move its mean by less than this share of the level leave it [WindowShape.FLAT]. */
    const val EXCURSION = 0.01

    /**
     * Where [segments] begin and end at one level (the first within [within] of the last), and the seconds away from
     * it move the mean of [xs] by less than [excursion] of that level (the mean with them against the mean without
     * them: segments within [within] of the level are that level, as [merge] has it, however their means differ):
     * those seconds in words; else null.
     */
    private fun excursions(xs: List<Double>, segments: List<Changepoints.Segment>, within: Double, excursion: Double): String? {
        val level = segments.last().mean
        if (abs(segments.first().mean - level) >= within || level <= 0) return null
        val away = segments.filter { abs(it.mean - level) >= within }
        if (away.isEmpty()) return null
        val held = segments.filter { abs(it.mean - level) < within }.flatMap { xs.subList(it.from, it.to) }
        val shift = abs(xs.average() - held.average()) / level
        if (shift >= excursion) return null
        val seconds = away.sumOf { it.length }
        val spells = away.joinToString(", ") { "${if (it.mean < level) "down" else "up"} to ${rate(it.mean)} for ${it.length} s" }
        return "left it for $seconds of ${xs.size} s ($spells), which moves the window's mean by ${"%.2f".format(Locale.ROOT, shift * 100)} % " +
            "(under ${pct(excursion)})"
    }

    /**
     * Half a completion: the least noise a count of completions per second carries. Answers that come at a steady
     * r per second fall ⌊r⌋ or ⌈r⌉ to a second, by where the second's edges cut them, a jitter of up to 0.5; a
     * series with little noise of its own (WebFlux's four event loops at 8 req/s: 8, 8, 8, 7, 7, 8, 8) would
     * otherwise take that jitter for a change of level and be flagged warming.
     */
    const val COUNT_STEP_NOISE = 0.5

    /**
     * [Changepoints]' default penalty on [logs], its σ at least [COUNT_STEP_NOISE] on the log scale
     * (0.5 ÷ (1 + [mean])): at 8 req/s a dip of one answer for two seconds is jitter, while one held for ten is
     * still found; at hundreds of req/s the floor is far below any real noise.
     */
    private fun penalty(logs: List<Double>, mean: Double): Double {
        val floor = COUNT_STEP_NOISE / (1 + mean)
        return maxOf(Changepoints.defaultPenalty(logs), Changepoints.PENALTY_FACTOR * floor * floor * ln(logs.size.toDouble()))
    }

    private fun segments(xs: List<Double>, cuts: List<Int>): List<Changepoints.Segment> =
        (listOf(0) + cuts + xs.size).zipWithNext { from, to -> Changepoints.Segment(from, to, xs.subList(from, to).average()) }

    /** Merges the closest neighbouring pair while their means differ by less than [within]; means recomputed from [xs]. */
    internal fun merge(xs: List<Double>, segments: List<Changepoints.Segment>, within: Double): List<Changepoints.Segment> {
        val out = segments.toMutableList()
        while (out.size > 1) {
            val i = (0 until out.size - 1).minBy { abs(out[it + 1].mean - out[it].mean) }
            if (abs(out[i + 1].mean - out[i].mean) >= within) break
            val from = out[i].from
            val to = out[i + 1].to
            out[i] = Changepoints.Segment(from, to, xs.subList(from, to).average())
            out.removeAt(i + 1)
        }
        return out
    }

    private fun describe(segments: List<Changepoints.Segment>, merged: Int, equivalence: Double): String {
        val count = if (segments.size == 1) "1 segment" else "${segments.size} segments"
        val note = if (merged > 0) " (after merging $merged change${if (merged == 1) "" else "s"} of less than ${pct(equivalence)})" else ""
        if (segments.size == 1) return "$count$note: ${rate(segments[0].mean)} over all ${segments[0].length} s"
        val parts = segments.dropLast(1).map { "${rate(it.mean)} for ${it.length} s" }
        val last = segments.last()
        return "$count$note: ${parts.joinToString(", then ")}, then ${rate(last.mean)} from second ${last.from}"
    }

    private fun rate(x: Double): String =
        if (abs(x) >= 100) "%,.0f req/s".format(Locale.ROOT, x) else "%,.1f req/s".format(Locale.ROOT, x)

    private fun pct(x: Double): String = "%.0f %%".format(Locale.ROOT, x * 100)
}
