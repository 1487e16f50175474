package stackbench.runner.stats

import kotlin.math.ln

/**
 * Where a ratio a ÷ b stands against a practical threshold t: clearly above the band [1 - t, 1 + t],
 * clearly below it, clearly inside it, or not decided by the repetitions so far.
 */
enum class Relation(val text: String) {
    HIGHER("higher"),
    LOWER("lower"),
    SAME("the same within the threshold"),
    UNDECIDED("cannot tell yet"),
    ;

    /** The relation's one word, as records and printouts write it (`higher`, `lower`, `same`, `undecided`). */
    val id: String get() = name.lowercase()
}

/** A claim's verdict, computed: what the article claimed against what the repetitions decided. */
enum class ClaimVerdict(val text: String) {
    HOLDS("holds"),
    DIFFERS("differs"),
    CANNOT_TELL("cannot tell"),
}

/**
 * A comparison decided: the ratio a ÷ b of the two sides' geometric means over processes, its interval, the exact rank
 * test's p-value, and where it stands against [threshold] ([relation]); [why] says in words what decided it.
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
    /** How it was decided: [Decisions.BOOTSTRAP] (repetition medians), [Decisions.PROCESS_MEANS] or [Decisions.PAIRED_ROUNDS]. */
    val method: String = Decisions.BOOTSTRAP,
    /** Processes counted a side (process-level methods only; paired: the pairs of rounds); [nA] and [nB] are then the windows counted. */
    val processesA: Int? = null,
    val processesB: Int? = null,
    /** Welch-Satterthwaite degrees of freedom of the interval (process-level method only). */
    val df: Double? = null,
    /** The interval's confidence level: 0.95, or what the look allowed ([Look]). */
    val confidence: Double? = null,
    /** Look k of K ([Look]); null for the bootstrap method. */
    val look: Int? = null,
    val maxLooks: Int? = null,
    /** Whether [pValue] is the exact rank-test p (false: ties, normal approximation); null for the bootstrap method. */
    val pExact: Boolean? = null,
) {
    val decided: Boolean get() = relation != Relation.UNDECIDED
}

/**
 * Look [k] of at most [of] at a comparison's data (the planned cells, then each `--until-decided` round), with
 * the confidence [SequentialLooks] allows it, so that all the looks together keep a false decision under 5 %.
 * One look of one: 95 %. K ([of]) is fixed before the first look and never changed after it.
 */
data class Look(
    val k: Int,
    val of: Int,
    /**
     * The rows sharing the look's error (Holm's step-down over a family of rows, [stackbench.runner.findings.Verdicts]):
     * the look's α is divided by it. 1: a comparison decided on its own.
     */
    val share: Int = 1,
) {
    init {
        require(of >= 1 && k in 1..of) { "look $k of $of" }
        require(share >= 1) { "a look's error shared among $share rows" }
    }

    val confidence: Double get() = 1 - (1 - SequentialLooks(of).confidenceAt(k)) / share

    /** The same look with its error shared among [rows] rows. */
    fun shared(rows: Int): Look = copy(share = rows)

    companion object {
        val SINGLE = Look(1, 1)
    }
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

    /** The method of runs recorded before the process-level methods (a bootstrap of repetition medians): read, never computed now. */
    const val BOOTSTRAP = "bootstrap-median-mann-whitney"

    /** The method of [processes]: Welch's t interval on the logarithms of process means, and the exact rank test over them. */
    const val PROCESS_MEANS = "welch-log-process-means"

    /** The method of [paired]: a one-sample t interval on the log ratios of rounds' paired process means, and the exact signed-rank test over them. */
    const val PAIRED_ROUNDS = "paired-log-process-means"

    /**
     * The method of [paired] over processes that measured both sides (one JVM serving both endpoints): the within-JVM
     * ratio of each shared process, a one-sample t interval on their logarithms and the exact signed-rank test.
     */
    const val SHARED_PROCESSES = "paired-within-process"

    /**
     * Deciding a comparison with the process as the unit of replication (issue 36): [a] and [b] hold each side's
     * windows grouped by the process (JVM) that measured them. The windows of a process are averaged first; the
     * ratio is that of the two sides' geometric means over process means, with Welch's t interval on their
     * logarithms ([ProcessRatio]) at the confidence [look] allows ([SequentialLooks]); [BandDecision] places it
     * against the band [1 − threshold, 1 + threshold]: the same when the whole interval lies inside it,
     * higher/lower when it lies wholly beyond it.
     *
     * Higher/lower also needs the exact Mann-Whitney test over the process means ([RankTest]) to reject equality
     * at the look's level, where it can: with few processes (3 against 3: smallest two-sided p 0.10) no exact rank
     * test can reach 5 %, and the interval, honest at that size, decides alone (said in [RatioDecision.why]).
     * Fewer than two processes a side: undecided, saying so.
     */
    fun processes(a: List<List<Double>>, b: List<List<Double>>, threshold: Double = THRESHOLD, look: Look = Look.SINGLE): RatioDecision {
        // 0 asks the sharp question (any difference at all): "the same" can then never be decided
        require(threshold >= 0 && threshold < 1) { "threshold must be in [0, 1), not $threshold" }
        val pa = a.filter { it.isNotEmpty() }
        val pb = b.filter { it.isNotEmpty() }
        val ma = pa.map { it.average() }
        val mb = pb.map { it.average() }
        val confidence = look.confidence
        val interval = ProcessRatio.interval(ma, mb, confidence)
        fun record(relation: Relation, why: String, p: RankTestResult? = null) = RatioDecision(
            interval.ratio, interval.low, interval.high, p?.pValue, pa.sumOf { it.size }, pb.sumOf { it.size }, threshold, relation, why,
            PROCESS_MEANS, pa.size, pb.size, interval.df, confidence, look.k, look.of, p?.exact,
        )
        val fewest = minOf(pa.size, pb.size)
        if (fewest < ProcessRatio.MIN_PROCESSES) {
            val sides = if (pa.size == pb.size) "$fewest process a side" else "$fewest process on one side (${pa.size} and ${pb.size})"
            return record(Relation.UNDECIDED, "$sides: an interval needs ${ProcessRatio.MIN_PROCESSES}")
        }
        val rank = RankTest.mannWhitney(ma, mb)
        val band = BandDecision.decide(interval, threshold)
        val lookText = if (look.of > 1) " (look ${look.k} of ${look.of})" else ""
        if (band.relation != Relation.HIGHER && band.relation != Relation.LOWER) return record(band.relation, "${band.why}$lookText", rank)
        val alpha = 1 - confidence
        val smallest = RankTest.smallestP(pa.size, pb.size)
        return when {
            smallest >= alpha -> record(band.relation, "${band.why}$lookText; with ${pa.size} and ${pb.size} processes the exact rank test " +
                "cannot reach p < ${small(alpha)} (smallest p ${small(smallest)}), so the interval decides alone", rank)
            rank.pValue < alpha -> record(band.relation, "${band.why}$lookText, exact rank test p = ${small(rank.pValue)}", rank)
            else -> record(Relation.UNDECIDED, "${band.why}$lookText, but the exact rank test does not reject equality " +
                "(p = ${small(rank.pValue)} ≥ ${small(alpha)})", rank)
        }
    }

    /**
     * Deciding a comparison paired by round (a suite comparison's `paired: true`): [a] and [b] hold each side's windows
     * by the round (the plan's process number: every configuration's first process, then every configuration's
     * second...) that measured them. Process k of a and process k of b ran minutes apart, so what drifts on the machine
     * between rounds (the host's speed, its neighbours) falls on both and cancels in their ratio. Each round's windows
     * are averaged; the ratio is the geometric mean of the rounds' ratios, with the one-sample t interval of their
     * logarithms ([PairedRatio]) at the confidence [look] allows, placed against the band as [processes] places it.
     * Higher/lower also needs the exact Wilcoxon signed-rank test over the log ratios to reject equality where it can
     * (with 5 pairs or fewer its smallest two-sided p is 1/16 or more, so the interval decides alone). A round measured
     * on one side only is left out and named; fewer than two pairs: undecided, saying so.
     *
     * Pairing gains when rounds differ (the machine drifts) and costs degrees of freedom when they do not: n − 1
     * against Welch's up to 2n − 2. A suite chooses it before the run, never after seeing which decides.
     */
    fun paired(
        a: Map<String, List<Double>>, b: Map<String, List<Double>>, threshold: Double = THRESHOLD, look: Look = Look.SINGLE,
        method: String = PAIRED_ROUNDS,
    ): RatioDecision {
        require(threshold >= 0 && threshold < 1) { "threshold must be in [0, 1), not $threshold" }
        val ra = a.filterValues { it.isNotEmpty() }
        val rb = b.filterValues { it.isNotEmpty() }
        val rounds = ra.keys.filter { it in rb }
        val alone = (ra.keys + rb.keys).filter { it !in rounds }.distinct()
        val confidence = look.confidence
        val windowsA = rounds.sumOf { ra.getValue(it).size }
        val windowsB = rounds.sumOf { rb.getValue(it).size }
        val unit = if (method == SHARED_PROCESSES) "process(es)" else "round(s)"
        val aloneText = if (alone.isEmpty()) "" else "; $unit ${alone.joinToString()} left out: measured on one side only"
        fun record(relation: Relation, why: String, interval: RatioInterval?, p: RankTestResult? = null) = RatioDecision(
            interval?.ratio, interval?.low, interval?.high, p?.pValue, windowsA, windowsB, threshold, relation, "$why$aloneText",
            method, rounds.size, rounds.size, interval?.df, confidence, look.k, look.of, p?.exact,
        )
        if (rounds.any { r -> (ra.getValue(r) + rb.getValue(r)).any { !(it > 0) } }) {
            return record(Relation.UNDECIDED, "a value ≤ 0 has no logarithm: no ratio of geometric means", null)
        }
        val logs = rounds.map { r -> ln(ra.getValue(r).average()) - ln(rb.getValue(r).average()) }
        val interval = PairedRatio.interval(logs, confidence)
        if (rounds.size < ProcessRatio.MIN_PROCESSES) {
            val what = if (method == SHARED_PROCESSES) "shared process(es)" else "pair(s) of rounds"
            return record(Relation.UNDECIDED, "${rounds.size} $what: an interval needs ${ProcessRatio.MIN_PROCESSES}", interval)
        }
        val band = BandDecision.decide(interval, threshold)
        val lookText = if (look.of > 1) " (look ${look.k} of ${look.of})" else ""
        val pairs = if (method == SHARED_PROCESSES) ", paired within ${rounds.size} shared processes" else ", paired over ${rounds.size} rounds"
        if (band.relation != Relation.HIGHER && band.relation != Relation.LOWER) return record(band.relation, "${band.why}$pairs$lookText", interval)
        val rank = RankTest.signedRank(logs)
        val alpha = 1 - confidence
        val smallest = RankTest.smallestSignedRankP(rounds.size)
        return when {
            smallest >= alpha -> record(band.relation, "${band.why}$pairs$lookText; with ${rounds.size} pairs the exact signed-rank test " +
                "cannot reach p < ${small(alpha)} (smallest p ${small(smallest)}), so the interval decides alone", interval, rank)
            rank.pValue < alpha -> record(band.relation, "${band.why}$pairs$lookText, exact signed-rank test p = ${small(rank.pValue)}", interval, rank)
            else -> record(Relation.UNDECIDED, "${band.why}$pairs$lookText, but the exact signed-rank test does not reject equality " +
                "(p = ${small(rank.pValue)} ≥ ${small(alpha)})", interval, rank)
        }
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


    /** A p-value or a level that may be far below 0.001 (an early look's). */
    private fun small(x: Double) = if (x < 0.001) "%.1e".format(java.util.Locale.ROOT, x) else "%.3f".format(java.util.Locale.ROOT, x)
}
