package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class BandDecisionTest {
    private fun interval(low: Double?, high: Double?) =
        RatioInterval(1.0, low, high, if (low == null) null else 4.0, 3, 3, 0.95, if (low == null) "1 process(es) on one side" else "test")

    private fun decide(low: Double?, high: Double?, band: Double = 0.10) = BandDecision.decide(interval(low, high), band)

    @Test
    fun `wholly above the band is higher`() {
        val d = decide(1.15, 1.30)
        assertThat(d.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.decided).isTrue()
        assertThat(d.why).isEqualTo("95.0 % interval [1.150, 1.300] above the band [0.90, 1.10]")
    }

    @Test
    fun `wholly below the band is lower`() {
        assertThat(decide(0.70, 0.85).relation).isEqualTo(Relation.LOWER)
    }

    @Test
    fun `wholly inside the band is the same`() {
        val d = decide(0.95, 1.05)
        assertThat(d.relation).isEqualTo(Relation.SAME)
        assertThat(d.why).contains("inside the band [0.90, 1.10]")
    }

    @Test
    fun `across an edge cannot tell, even when the interval excludes 1`() {
        assertThat(decide(1.05, 1.20).relation).isEqualTo(Relation.UNDECIDED)
        assertThat(decide(0.85, 1.15).relation).isEqualTo(Relation.UNDECIDED)
        assertThat(decide(1.05, 1.20).why).contains("crosses an edge")
    }

    @Test
    fun `the band's edges count as inside, not as beyond`() {
        // band 0.25: its edges 0.75 and 1.25 are exact in binary
        assertThat(decide(0.75, 1.25, band = 0.25).relation).isEqualTo(Relation.SAME)
        assertThat(decide(1.25, 1.50, band = 0.25).relation).isEqualTo(Relation.UNDECIDED)
        assertThat(decide(0.50, 0.75, band = 0.25).relation).isEqualTo(Relation.UNDECIDED)
    }

    @Test
    fun `no interval cannot tell`() {
        val d = decide(null, null)
        assertThat(d.relation).isEqualTo(Relation.UNDECIDED)
        assertThat(d.why).isEqualTo("no interval: 1 process(es) on one side")
    }

    @Test
    fun `a band of 0 is a plain significance question and never says the same`() {
        assertThat(decide(1.01, 1.10, band = 0.0).relation).isEqualTo(Relation.HIGHER)
        assertThat(decide(0.90, 0.99, band = 0.0).relation).isEqualTo(Relation.LOWER)
        assertThat(decide(0.999, 1.001, band = 0.0).relation).isEqualTo(Relation.UNDECIDED)
    }
}
