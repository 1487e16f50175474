package stackbench.runner.stats

import org.apache.commons.statistics.distribution.NormalDistribution
import kotlin.math.sqrt

/**
 * The confidence level to use at each look of a comparison that is looked at up to [maxLooks] times (the planned
 * repetitions, then each `--until-decided` round), so that the chance of any false decision over all the looks
 * stays at most [alpha]. Testing every look at the same 95 % would let that chance grow with every look.
 *
 * Lan-DeMets alpha spending (Lan & DeMets, Biometrika 1983) with the O'Brien-Fleming-type function
 * α(t) = 2 − 2Φ(z(α/2) / √t): look k of K, at information fraction t = k / K, may spend α(k/K) − α((k − 1)/K).
 * Early looks spend almost nothing (with K = 4 and α = 5 %: 0.009 %, 0.55 %, 1.81 %, 2.64 %), so a comparison
 * stops early only on a difference far clear of the band. Each look's interval is then taken at the level
 * 1 − that increment; by the union bound (Bonferroni over the increments, which add up to α) the overall false-
 * decision rate is at most α whatever the correlation between looks. That is conservative: the exact
 * group-sequential boundaries, which use the looks' correlation, would spend a little more at each look.
 *
 * Assumes K is fixed before the data (e.g. from the budget: the rounds that fit) and not changed after a look;
 * stopping earlier than K is always allowed and only lowers the error rate.
 */
class SequentialLooks(val maxLooks: Int, val alpha: Double = Statistics.ALPHA) {
    init {
        require(maxLooks >= 1) { "at least one look, not $maxLooks" }
        require(alpha > 0 && alpha < 1) { "alpha must be between 0 and 1, not $alpha" }
    }

    /** α(t): the error spent by information fraction [t] in [0, 1]. */
    fun spent(t: Double): Double {
        require(t in 0.0..1.0) { "information fraction must be in [0, 1], not $t" }
        if (t == 0.0) return 0.0
        return 2 - 2 * NORMAL.cumulativeProbability(NORMAL.inverseCumulativeProbability(1 - alpha / 2) / sqrt(t))
    }

    /** The two-sided error that look [look] (1..[maxLooks]) may spend: α(k/K) − α((k − 1)/K). */
    fun alphaAt(look: Int): Double {
        require(look in 1..maxLooks) { "look $look is outside 1..$maxLooks" }
        return spent(look.toDouble() / maxLooks) - spent((look - 1).toDouble() / maxLooks)
    }

    /** The confidence level of the interval at look [look]: 1 − [alphaAt]. One look of one: 1 − α. */
    fun confidenceAt(look: Int): Double = 1 - alphaAt(look)

    private companion object {
        val NORMAL = NormalDistribution.of(0.0, 1.0)
    }
}
