package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import kotlin.math.exp
import kotlin.math.sqrt

/**
 * A known truth for comparisons paired by round ([Decisions.paired]): simulated runs where the true ratio is known
 * and each round of the plan carries the machine's pace of that time, shared by both sides, e^(σr·Z) with σr drawn
 * per run from 0-12 % (the host's pace canary read 1.04-1.08 over one run of 2026-11-29, and the app's CPU at a fixed
 * rate moved with it); each process settles at its own level around it, e^(σb·Z), σb from 3-8 %, and holds one
 * window (as `suites/database-cost.yaml`). A run starts at [FIRST] pairs and adds one per look, up to [LOOKS] looks.
 */
class PairedKnownTruthTest {
    private companion object {
        const val RUNS = 4000
        const val FIRST = 3
        const val LOOKS = 4
        const val BAND = 0.10
        const val ALPHA = 0.05
    }

    /** One simulated run: each side's process values by round, [FIRST] + [LOOKS] − 1 rounds. */
    private class Run(val a: List<Double>, val b: List<Double>) {
        fun rounds(side: List<Double>, n: Int) = side.take(n).mapIndexed { i, v -> "${i + 1}" to listOf(v) }.toMap()
        fun processes(side: List<Double>, n: Int) = side.take(n).map { listOf(it) }
    }

    private fun simulate(seed: Long, trueRatio: Double, drift: ClosedFloatingPointRange<Double> = 0.0..0.12, rounds: Int = FIRST + LOOKS - 1): List<Run> {
        val rng = java.util.Random(seed)
        return List(RUNS) {
            val sr = drift.start + (drift.endInclusive - drift.start) * rng.nextDouble()
            val sb = 0.03 + 0.05 * rng.nextDouble()
            val pace = List(rounds) { exp(sr * rng.nextGaussian()) }
            fun side(level: Double) = pace.map { level * it * exp(sb * rng.nextGaussian()) }
            Run(side(60.0 * trueRatio), side(60.0))
        }
    }

    private fun sequential(run: Run, band: Double): Relation {
        for (k in 1..LOOKS) {
            val n = FIRST + k - 1
            val d = Decisions.paired(run.rounds(run.a, n), run.rounds(run.b, n), band, Look(k, LOOKS))
            if (d.decided) return d.relation
        }
        return Relation.UNDECIDED
    }

    private fun rate(runs: List<Run>, event: (Run) -> Boolean) = runs.count(event).toDouble() / runs.size
    private fun falseCall(r: Relation) = r == Relation.HIGHER || r == Relation.LOWER
    private val margin = 2 * sqrt(ALPHA * (1 - ALPHA) / RUNS)

    @Test
    fun `A-A paired by round over until-decided looks rarely calls a difference`() {
        val aa = simulate(seed = 38, trueRatio = 1.0)
        val atBand = rate(aa) { falseCall(sequential(it, BAND)) }
        val noBand = rate(aa) { falseCall(sequential(it, 0.0)) }
        println("paired A/A, $RUNS runs, $FIRST to ${FIRST + LOOKS - 1} pairs over $LOOKS looks: false higher/lower ${pct(atBand)} at ±10 %, " +
            "${pct(noBand)} with no band (alpha spent)")
        assertThat(atBand).isLessThanOrEqualTo(ALPHA + margin)
        assertThat(noBand).isLessThanOrEqualTo(ALPHA + margin)
    }

    @Test
    fun `95 % paired intervals over six rounds cover the true ratio, with drift and without`() {
        fun cover(runs: List<Run>, truth: Double) = rate(runs) { r ->
            val i = Decisions.paired(r.rounds(r.a, 6), r.rounds(r.b, 6))
            i.low!! <= truth && truth <= i.high!!
        }
        val drifting = cover(simulate(seed = 39, trueRatio = 1.2), 1.2)
        val steady = cover(simulate(seed = 40, trueRatio = 1.0, drift = 0.0..0.0), 1.0)
        println("coverage of 95 % paired intervals, 6 pairs: ${pct(drifting)} (true 1.2, drift 0-12 %), ${pct(steady)} (true 1.0, no drift)")
        assertThat(drifting).isGreaterThanOrEqualTo(0.93)
        assertThat(steady).isGreaterThanOrEqualTo(0.93)
    }

    @Test
    fun `pairing sees through drift between rounds that Welch counts as noise, and costs little without it`() {
        fun power(runs: List<Run>, paired: Boolean) = rate(runs) { r ->
            val d = if (paired) Decisions.paired(r.rounds(r.a, 6), r.rounds(r.b, 6), BAND) else Decisions.processes(r.processes(r.a, 6), r.processes(r.b, 6), BAND)
            d.relation == Relation.HIGHER
        }
        val drifting = simulate(seed = 41, trueRatio = 1.25, drift = 0.08..0.12)
        val steady = simulate(seed = 42, trueRatio = 1.25, drift = 0.0..0.0)
        val (pd, wd) = power(drifting, true) to power(drifting, false)
        val (ps, ws) = power(steady, true) to power(steady, false)
        println("power to call a true 1.25 higher at ±10 % with 6 processes a side: paired ${pct(pd)}, Welch ${pct(wd)} (drift 8-12 % between rounds); " +
            "paired ${pct(ps)}, Welch ${pct(ws)} (no drift)")
        assertThat(pd).isGreaterThan(wd + 0.2)
        // a true 1.25 lies beyond the band: paired never calls it lower or the same more often than alpha allows
        assertThat(rate(drifting) { r -> Decisions.paired(r.rounds(r.a, 6), r.rounds(r.b, 6), BAND).relation.let { it == Relation.LOWER || it == Relation.SAME } })
            .isLessThanOrEqualTo(ALPHA + margin)
    }

    private fun pct(x: Double) = "%.1f %%".format(java.util.Locale.ROOT, 100 * x)
}
