package stackbench.runner.stats

/**
 * Where a ratio a ÷ b stands against a practical threshold t: clearly above the band [1 - t, 1 + t],
 * clearly below it, clearly inside it, or not decided by the repetitions so far.
 */
enum class Relation(val text: String) {
    HIGHER("higher"),
    LOWER("lower"),
    SAME("the same within the threshold"),
    UNDECIDED("cannot tell yet"),
}

/** A claim's verdict, computed: what the article claimed against what the repetitions decided. */
enum class ClaimVerdict(val text: String) {
    HOLDS("holds"),
    DIFFERS("differs"),
    CANNOT_TELL("cannot tell"),
}

/**
 * The ratio of two sets of repetitions' medians, a ÷ b, with its 95 % bootstrap interval, the Mann-Whitney
 * p-value, and where it stands against [threshold] ([relation]); [why] says in words what decided it.
 */
data class RatioDecision(
    val ratio: Double?,
    val low: Double?,
    val high: Double?,
    val pValue: Double?,
    val nA: Int,
    val nB: Int,
    val threshold: Double,
    val relation: Relation,
    val why: String,
) {
    val decided: Boolean get() = relation != Relation.UNDECIDED
}

/**
 * Deciding a comparison from its repetitions, the way a performance engineer would sign it: a ratio is
 * higher (or lower) only when its whole 95 % interval lies beyond the practical threshold and the rank test
 * rejects equality; it is the same only when its whole interval lies inside the threshold's band; anything
 * else is undecided, and more repetitions may decide it. A gap inside the run-to-run noise is never called
 * a difference, and a difference smaller than the threshold is called "the same".
 */
object Decisions {
    /** The practical threshold: ±10 %, about this machine's run-to-run spread. */
    const val THRESHOLD = 0.10

    fun ratio(a: List<Double>, b: List<Double>, threshold: Double = THRESHOLD): RatioDecision {
        require(threshold > 0 && threshold < 1) { "threshold must be between 0 and 1, not $threshold" }
        val ma = a.takeIf { it.isNotEmpty() }?.let { Statistics.median(it) }
        val mb = b.takeIf { it.isNotEmpty() }?.let { Statistics.median(it) }
        val point = if (ma != null && mb != null && mb > 0) ma / mb else null
        fun undecided(why: String) = RatioDecision(point, null, null, null, a.size, b.size, threshold, Relation.UNDECIDED, why)
        if (a.size < Statistics.MIN_FOR_INTERVAL || b.size < Statistics.MIN_FOR_INTERVAL) {
            return undecided("${minOf(a.size, b.size)} repetition(s) on one side; an interval needs ${Statistics.MIN_FOR_INTERVAL}")
        }
        if (point == null) return undecided("the second side's median is 0: no ratio")
        val change = Statistics.change(before = b, after = a)
        val low = 1 + change.low!!
        val high = 1 + change.high!!
        val p = change.pValue!!
        val band = "[${pct(1 - threshold)}, ${pct(1 + threshold)}]"
        val interval = "[${"%.3f".format(java.util.Locale.ROOT, low)}, ${"%.3f".format(java.util.Locale.ROOT, high)}]"
        val (relation, why) = when {
            low > 1 + threshold && p < Statistics.ALPHA -> Relation.HIGHER to "interval $interval above the band $band, p = ${p(p)}"
            high < 1 - threshold && p < Statistics.ALPHA -> Relation.LOWER to "interval $interval below the band $band, p = ${p(p)}"
            low >= 1 - threshold && high <= 1 + threshold -> Relation.SAME to "interval $interval inside the band $band"
            low > 1 + threshold || high < 1 - threshold -> Relation.UNDECIDED to "interval $interval clear of the band $band, but the rank test does not reject equality (p = ${p(p)})"
            else -> Relation.UNDECIDED to "interval $interval crosses an edge of the band $band"
        }
        return RatioDecision(point, low, high, p, a.size, b.size, threshold, relation, why)
    }

    /** What a published ratio claims: higher or lower beyond the threshold, else the same. */
    fun claimed(publishedRatio: Double, threshold: Double = THRESHOLD): Relation = when {
        publishedRatio > 1 + threshold -> Relation.HIGHER
        publishedRatio < 1 - threshold -> Relation.LOWER
        else -> Relation.SAME
    }

    /**
     * A claim's verdict: holds when the measured relation is the claimed one, differs when the repetitions
     * decided another, cannot tell when they decided nothing or when any measurement it rests on is flagged
     * ([disqualified]: e.g. a window that was still warming, or too few round trips).
     */
    fun verdict(claimed: Relation, measured: RatioDecision, disqualified: List<String> = emptyList()): ClaimVerdict = when {
        disqualified.isNotEmpty() -> ClaimVerdict.CANNOT_TELL
        !measured.decided -> ClaimVerdict.CANNOT_TELL
        measured.relation == claimed -> ClaimVerdict.HOLDS
        else -> ClaimVerdict.DIFFERS
    }

    private fun pct(x: Double) = "%.2f".format(java.util.Locale.ROOT, x)
    private fun p(x: Double) = "%.3f".format(java.util.Locale.ROOT, x)
}
