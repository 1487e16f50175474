package stackbench.runner.stats

import org.apache.commons.statistics.distribution.NormalDistribution
import org.apache.commons.statistics.inference.MannWhitneyUTest
import org.apache.commons.statistics.inference.PValueMethod
import org.apache.commons.statistics.inference.ContinuityCorrection
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class RankTestTest {
    private val old = MannWhitneyUTest.withDefaults().with(PValueMethod.ASYMPTOTIC).with(ContinuityCorrection.DISABLED)

    @Test
    fun `3 vs 3 complete separation is p = 2 of 20, not the normal approximation's 0_0495`() {
        val a = listOf(4.0, 5.0, 6.0)
        val b = listOf(1.0, 2.0, 3.0)
        val r = RankTest.mannWhitney(a, b)
        // of the C(6, 3) = 20 equally likely splits of the ranks, one puts a wholly above, one wholly below
        assertThat(r.pValue).isCloseTo(2.0 / 20, within(1e-12))
        assertThat(r.u).isEqualTo(9.0)
        assertThat(r.exact).isTrue()
        assertThat(old.test(a.toDoubleArray(), b.toDoubleArray()).pValue).isCloseTo(0.0495, within(1e-4))
    }

    @Test
    fun `3 vs 4 complete separation is p = 2 of 35, not 0_034`() {
        val a = listOf(5.0, 6.0, 7.0)
        val b = listOf(1.0, 2.0, 3.0, 4.0)
        assertThat(RankTest.mannWhitney(a, b).pValue).isCloseTo(2.0 / 35, within(1e-12))
        assertThat(RankTest.mannWhitney(b, a).pValue).isCloseTo(2.0 / 35, within(1e-12))
        assertThat(old.test(a.toDoubleArray(), b.toDoubleArray()).pValue).isCloseTo(0.034, within(1e-3))
    }

    @Test
    fun `interleaved 3 vs 3 counts the splits at least as extreme`() {
        // a's ranks 1, 3, 5: U = 9 - 6 = 3; of the 20 splits, U <= 3 in 1 + 1 + 2 + 3 = 7, so two-sided 14/20
        val r = RankTest.mannWhitney(listOf(1.0, 3.0, 5.0), listOf(2.0, 4.0, 6.0))
        assertThat(r.u).isEqualTo(3.0)
        assertThat(r.pValue).isCloseTo(14.0 / 20, within(1e-12))
    }

    @Test
    fun `identical samples give p = 1 by the library's tie-corrected approximation`() {
        val r = RankTest.mannWhitney(listOf(1.0, 2.0, 3.0), listOf(1.0, 2.0, 3.0))
        assertThat(r.pValue).isEqualTo(1.0)
        assertThat(r.exact).isFalse()
    }

    @Test
    fun `ties fall back to the normal approximation with tie and continuity corrections`() {
        val r = RankTest.mannWhitney(listOf(1.0, 2.0, 2.0), listOf(2.0, 3.0, 4.0))
        // ranks of 1, 2, 2 | 2, 3, 4: 1, 3, 3 | 3, 5, 6; U = 7 - 6 = 1, E[U] = 4.5
        // tie term: one group of 3, 3³ - 3 = 24; var = (9 / 12)(7 - 24 / (6 · 5)) = 4.65
        // continuity: |1 - 4.5| - 0.5 = 3; p = 2 Φ(-3 / √4.65) = 0.16416
        assertThat(r.exact).isFalse()
        assertThat(r.u).isEqualTo(1.0)
        assertThat(r.pValue).isCloseTo(2 * NormalDistribution.of(0.0, 1.0).cumulativeProbability(-3 / Math.sqrt(4.65)), within(1e-9))
        assertThat(r.pValue).isCloseTo(0.16416, within(1e-5))
    }

    @Test
    fun `the smallest p a design can give`() {
        assertThat(RankTest.smallestP(3, 3)).isCloseTo(0.10, within(1e-12))
        assertThat(RankTest.smallestP(3, 4)).isCloseTo(2.0 / 35, within(1e-12))
        // 4 vs 4 is the first balanced design that can reach 5 %: 2/70
        assertThat(RankTest.smallestP(4, 4)).isCloseTo(2.0 / 70, within(1e-12))
        assertThat(RankTest.smallestP(1, 1)).isEqualTo(1.0)
    }

    @Test
    fun `the signed-rank test of paired log ratios is exact, six pairs one way give 2 of 64`() {
        val r = RankTest.signedRank(listOf(0.21, 0.18, 0.25, 0.19, 0.22, 0.2))
        assertThat(r.pValue).isCloseTo(2.0 / 64, within(1e-12))
        assertThat(r.exact).isTrue()
        assertThat(r.nA).isEqualTo(6)
        // one pair the other way, the smallest in size: W+ = 20 of 21, and 2 of 64 signings are as extreme each way
        assertThat(RankTest.signedRank(listOf(0.21, 0.18, 0.25, 0.19, 0.22, -0.01)).pValue).isCloseTo(4.0 / 64, within(1e-12))
    }

    @Test
    fun `the smallest p a paired design can give`() {
        assertThat(RankTest.smallestSignedRankP(5)).isCloseTo(1.0 / 16, within(1e-12))
        // 6 pairs are the fewest that can reach 5 %
        assertThat(RankTest.smallestSignedRankP(6)).isCloseTo(1.0 / 32, within(1e-12))
        assertThat(RankTest.smallestSignedRankP(1)).isEqualTo(1.0)
    }
}
