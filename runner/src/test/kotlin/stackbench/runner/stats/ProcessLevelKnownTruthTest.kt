package stackbench.runner.stats

import org.apache.commons.statistics.inference.MannWhitneyUTest
import org.apache.commons.statistics.inference.PValueMethod
import org.apache.commons.statistics.inference.ContinuityCorrection
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import kotlin.math.exp
import kotlin.math.sqrt

/**
 * A known truth for the statistics: simulated comparisons with the variance components the lab measured, where
 * the true ratio is known, decided by the process-level method ([ProcessRatio] + [BandDecision] + [SequentialLooks])
 * and by the old one (Mann-Whitney's normal approximation over windows taken as independent). Each decision goes
 * through the path suite comparisons and findings use ([Decisions.processes]: windows grouped by process, averaged,
 * Welch on logarithms at the look's confidence, the exact rank test where it can reach the level).
 *
 * Each simulated process settles at its own level, level · e^(σb·Z), σb drawn per run from 5-13 % (the spread
 * between JVMs, issue 36: 2,478-3,240 req/s over seven processes); each of its [WINDOWS] windows is that level ·
 * e^(σw·Z), σw from 1.5-2 % (between windows of one steady JVM). A process counts as its windows' mean.
 * A run starts at [FIRST] processes a side and adds one a side per look, up to [LOOKS] looks.
 */
class ProcessLevelKnownTruthTest {
    private companion object {
        const val RUNS = 4000
        const val FIRST = 3
        const val LOOKS = 4
        const val WINDOWS = 3
        const val BAND = 0.10
        const val ALPHA = 0.05
    }

    /** One simulated run: the windows of every process it may use, [FIRST] + [LOOKS] − 1 a side. */
    private class Run(val a: List<List<Double>>, val b: List<List<Double>>) {
        fun means(side: List<List<Double>>, processes: Int) = side.take(processes).map { it.average() }
        fun windows(side: List<List<Double>>, processes: Int) = side.take(processes).flatten()
    }

    private fun simulate(seed: Long, trueRatio: Double, processes: Int = FIRST + LOOKS - 1): List<Run> {
        val rng = java.util.Random(seed)
        return List(RUNS) {
            val between = 0.05 + 0.08 * rng.nextDouble()
            val within = 0.015 + 0.005 * rng.nextDouble()
            fun side(level: Double) = List(processes) {
                val settled = level * exp(between * rng.nextGaussian())
                List(WINDOWS) { settled * exp(within * rng.nextGaussian()) }
            }
            Run(side(1000.0 * trueRatio), side(1000.0))
        }
    }

    /** The new method over up to [looks] looks: each look's interval at the level [SequentialLooks] allows. */
    private fun sequential(run: Run, band: Double, looks: Int = LOOKS, spend: Boolean = true): Relation {
        for (k in 1..looks) {
            val n = FIRST + k - 1
            val look = if (spend) Look(k, looks) else Look.SINGLE
            val d = Decisions.processes(run.a.take(n), run.b.take(n), band, look)
            if (d.decided) return d.relation
        }
        return Relation.UNDECIDED
    }

    private fun rate(runs: List<Run>, event: (Run) -> Boolean) = runs.count(event).toDouble() / runs.size

    private fun falseCall(r: Relation) = r == Relation.HIGHER || r == Relation.LOWER

    /** Two standard errors of a rate of [ALPHA] over [RUNS] runs: what simulation alone may add to it. */
    private val margin = 2 * sqrt(ALPHA * (1 - ALPHA) / RUNS)

    private val aa = simulate(seed = 36, trueRatio = 1.0)

    @Test
    fun `A-A with until-decided looks rarely calls a difference, at the lab's band and with none`() {
        val atBand = rate(aa) { falseCall(sequential(it, BAND)) }
        // band 0 is the sharp question: the interval alone must keep its error rate over four looks
        val noBand = rate(aa) { falseCall(sequential(it, 0.0)) }
        // the same looks each at 95 %: optional stopping, what --until-decided did
        val naive = rate(aa) { falseCall(sequential(it, 0.0, spend = false)) }
        val same = rate(aa) { sequential(it, BAND) == Relation.SAME }
        println("A/A, $RUNS runs, $FIRST to ${FIRST + LOOKS - 1} processes a side over $LOOKS looks: false higher/lower " +
            "${pct(atBand)} at ±10 %, ${pct(noBand)} with no band (alpha spent), ${pct(naive)} with no band at 95 % every look; " +
            "decided the same at ±10 %: ${pct(same)}")
        assertThat(atBand).isLessThanOrEqualTo(ALPHA + margin)
        assertThat(noBand).isLessThanOrEqualTo(ALPHA + margin)
        assertThat(naive).isGreaterThan(noBand)
    }

    @Test
    fun `the old method, windows of one JVM taken as independent, calls A-A differences far too often`() {
        val old = MannWhitneyUTest.withDefaults().with(PValueMethod.ASYMPTOTIC).with(ContinuityCorrection.DISABLED)
        val p = aa.map { old.test(it.windows(it.a, FIRST).toDoubleArray(), it.windows(it.b, FIRST).toDoubleArray()).pValue }
        val falsePositive = p.count { it < ALPHA }.toDouble() / p.size
        println("A/A, $RUNS runs: Mann-Whitney (normal approximation) over ${FIRST * WINDOWS} vs ${FIRST * WINDOWS} windows, " +
            "p < 0.05 in ${pct(falsePositive)}")
        assertThat(falsePositive).isGreaterThan(0.25)
    }

    @Test
    fun `95 % intervals over three processes a side cover the true ratio`() {
        val aaCover = rate(aa) { covers(it, 1.0) }
        val diffCover = rate(simulate(seed = 37, trueRatio = 1.2, processes = FIRST)) { covers(it, 1.2) }
        println("coverage of 95 % intervals, $FIRST processes a side: ${pct(aaCover)} (true ratio 1.0), ${pct(diffCover)} (true ratio 1.2)")
        assertThat(aaCover).isGreaterThanOrEqualTo(0.93)
        assertThat(diffCover).isGreaterThanOrEqualTo(0.93)
    }

    @Test
    fun `power to see a true 20 % difference is printed, and its false decisions are rare`() {
        val runs = simulate(seed = 38, trueRatio = 1.2, processes = 5)
        fun fixed(n: Int) = rate(runs) {
            Decisions.processes(it.a.take(n), it.b.take(n), BAND).relation == Relation.HIGHER
        }
        val up = simulate(seed = 39, trueRatio = 1.2)
        val looked = rate(up) { sequential(it, BAND) == Relation.HIGHER }
        val wrong = rate(up) { sequential(it, BAND).let { r -> r == Relation.LOWER || r == Relation.SAME } }
        println("power to call a true 1.2 higher at ±10 %: ${pct(fixed(3))} with 3 processes a side, ${pct(fixed(5))} with 5; " +
            "${pct(looked)} over $LOOKS looks from 3 to 6 (lower or the same: ${pct(wrong)})")
        // a true 1.2 lies beyond the band: "lower" or "the same" would be a false decision
        assertThat(wrong).isLessThanOrEqualTo(ALPHA + margin)
    }

    private fun covers(run: Run, truth: Double): Boolean {
        val i = ProcessRatio.interval(run.means(run.a, FIRST), run.means(run.b, FIRST))
        return i.low!! <= truth && truth <= i.high!!
    }

    private fun pct(x: Double) = "%.1f %%".format(java.util.Locale.ROOT, 100 * x)
}
