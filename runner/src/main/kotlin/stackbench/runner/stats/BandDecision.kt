package stackbench.runner.stats

import java.util.Locale
import kotlin.math.ln

/** Where an interval of a ratio stands against a band, and why, in the words of [Decisions]. */
data class IntervalDecision(val relation: Relation, val why: String) {
    val decided: Boolean get() = relation != Relation.UNDECIDED
}

/**
 * Deciding a ratio from its interval alone, against the practical band [1 − band, 1 + band]: no separate test
 * has to agree, since an interval that clears the band already rejects every ratio inside it.
 */
object BandDecision {
    /**
     * Higher when the whole interval lies above 1 + [band], lower when wholly below 1 − [band], the same when it
     * lies wholly inside the band, and cannot tell otherwise (or when there is no interval).
     *
     * "The same" is equivalence by two one-sided tests (TOST, Schuirmann 1987): a two-sided interval at 1 − α
     * inside the band is TOST at α/2 a side, stricter than the usual α. The error rates are those of the
     * interval: assumes [interval] is honest at its level (e.g. [ProcessRatio.interval] over independent
     * processes) and, when the data are looked at more than once, that its level came from [SequentialLooks].
     * [band] = 0 asks a plain significance question: "the same" can then never be decided.
     */
    fun decide(interval: RatioInterval, band: Double): IntervalDecision {
        require(band >= 0 && band < 1) { "band must be in [0, 1), not $band" }
        val low = interval.low
        val high = interval.high
        if (low == null || high == null) return IntervalDecision(Relation.UNDECIDED, "no interval: ${interval.why}")
        val lo = 1 - band
        val hi = 1 + band
        val at = "${f(interval.confidence * 100, 1)} % interval [${f(low, 3)}, ${f(high, 3)}]"
        val of = "the band [${f(lo, 2)}, ${f(hi, 2)}]"
        return when {
            low > hi -> IntervalDecision(Relation.HIGHER, "$at above $of")
            high < lo -> IntervalDecision(Relation.LOWER, "$at below $of")
            band > 0 && low >= lo && high <= hi -> IntervalDecision(Relation.SAME, "$at inside $of")
            else -> IntervalDecision(Relation.UNDECIDED, "$at crosses an edge of $of")
        }
    }

    /**
     * Whether an interval of half-width [half] (log scale) around a true log ratio [logRatio] would decide it against the
     * band ±[band]: beyond the band for a ratio outside it, inside it for one within it. What the estimates of the
     * fewest processes or pairs that decide ([Components.processesNeeded], [PairedRatio.pairsNeeded]) ask of each size.
     */
    fun wouldDecide(logRatio: Double, half: Double, band: Double): Boolean {
        val (up, down) = ln(1 + band) to ln(1 - band)
        return when {
            logRatio > up -> logRatio - half > up
            logRatio < down -> logRatio + half < down
            else -> logRatio - half > down && logRatio + half < up
        }
    }

    private fun f(x: Double, digits: Int) = "%.${digits}f".format(Locale.ROOT, x)
}
