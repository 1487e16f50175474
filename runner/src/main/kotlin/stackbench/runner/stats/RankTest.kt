package stackbench.runner.stats

import org.apache.commons.statistics.inference.AlternativeHypothesis
import org.apache.commons.statistics.inference.MannWhitneyUTest
import org.apache.commons.statistics.inference.PValueMethod
import org.apache.commons.statistics.inference.WilcoxonSignedRankTest

/**
 * A two-sample Mann-Whitney test's outcome: [u] is U of the first sample (a), [pValue] two-sided. [exact] is
 * false when the samples share a value: the library's exact distribution assumes no ties, so it falls back to
 * the normal approximation with tie and continuity corrections, which at n of 3 to 6 is only a rough guide.
 */
data class RankTestResult(val u: Double, val pValue: Double, val exact: Boolean, val nA: Int, val nB: Int)

/**
 * The Mann-Whitney (Wilcoxon rank-sum) test with the exact p-value at small n (Apache Commons Statistics).
 * The normal approximation the lab used before (commons-math3) gives 3 vs 3 complete separation p = 0.0495; the
 * exact two-sided p is 2 / C(6, 3) = 0.10, so no 3-vs-3 comparison can reach 5 %.
 */
object RankTest {
    private val EXACT = MannWhitneyUTest.withDefaults()
        .with(AlternativeHypothesis.TWO_SIDED)
        .with(PValueMethod.EXACT)

    /**
     * Tests whether [a] and [b] come from one distribution, against a shift either way.
     *
     * Assumes the values are independent draws: one value per process (a process mean), not windows of one JVM,
     * whose JIT settles each process at its own level (Kalibera & Jones 2013). Without ties the p-value is the
     * exact permutation probability (Mann & Whitney 1947); with ties see [RankTestResult.exact].
     */
    fun mannWhitney(a: List<Double>, b: List<Double>): RankTestResult {
        require(a.isNotEmpty() && b.isNotEmpty()) { "each side needs a value (${a.size} and ${b.size})" }
        val r = EXACT.test(a.toDoubleArray(), b.toDoubleArray())
        return RankTestResult(r.statistic, r.pValue, !r.hasTiedValues(), a.size, b.size)
    }

    /**
     * The smallest two-sided p-value an exact rank test can give with [nA] and [nB] values, 2 / C(nA + nB, nA):
     * the most a complete separation can say. Below α no design this small can decide by the rank test alone.
     */
    fun smallestP(nA: Int, nB: Int): Double {
        require(nA > 0 && nB > 0) { "each side needs a value ($nA and $nB)" }
        var ways = 1.0
        for (i in 1..nA) ways = ways * (nB + i) / i
        return minOf(1.0, 2 / ways)
    }

    private val SIGNED = WilcoxonSignedRankTest.withDefaults()
        .with(AlternativeHypothesis.TWO_SIDED)
        .with(PValueMethod.EXACT)

    /**
     * The Wilcoxon signed-rank test of paired differences [d] (e.g. log ratios of paired process means) against a
     * median of 0, two-sided, exact where the library can (no ties and no zero difference: [RankTestResult.exact]).
     * [RankTestResult.u] holds the signed-rank statistic W; [RankTestResult.nA] and [RankTestResult.nB] the pairs.
     *
     * Assumes the pairs are independent of each other and each difference symmetric around the true one.
     */
    fun signedRank(d: List<Double>): RankTestResult {
        require(d.isNotEmpty()) { "no pair" }
        val r = SIGNED.test(d.toDoubleArray())
        return RankTestResult(r.statistic, r.pValue, !r.hasTiedValues() && !r.hasZeroValues(), d.size, d.size)
    }

    /** The smallest two-sided p-value an exact signed-rank test can give with [pairs] pairs, 2 / 2^n: every sign alike. */
    fun smallestSignedRankP(pairs: Int): Double {
        require(pairs > 0) { "at least one pair, not $pairs" }
        return minOf(1.0, 2 / Math.pow(2.0, pairs.toDouble()))
    }
}
