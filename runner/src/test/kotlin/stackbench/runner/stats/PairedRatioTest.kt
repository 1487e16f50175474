package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

class PairedRatioTest {
    @Test
    fun `the geometric mean of the pairs' ratios, with a t interval on their logarithms`() {
        val ratios = listOf(0.97, 0.95, 0.96, 0.98)
        val logs = ratios.map { ln(it) }
        val r = PairedRatio.interval(logs)
        val m = logs.average()
        val s = sqrt(logs.sumOf { (it - m) * (it - m) } / 3)
        // t(3, 0.975) = 3.1824
        assertThat(r.ratio!!).isCloseTo(exp(m), within(1e-12))
        assertThat(r.low!!).isCloseTo(exp(m - 3.1824 * s / 2), within(1e-4))
        assertThat(r.high!!).isCloseTo(exp(m + 3.1824 * s / 2), within(1e-4))
        assertThat(r.df).isEqualTo(3.0)
        assertThat(r.why).contains("4 paired ratios")
    }

    @Test
    fun `pairs that share a window widen the interval by the square root of the inflation`() {
        val logs = listOf(0.97, 0.95, 0.96, 0.98).map { ln(it) }
        val plain = PairedRatio.interval(logs)
        val shared = PairedRatio.interval(logs, inflation = PairedRatio.SHARED_NEIGHBOURS)
        assertThat(ln(shared.high!!) - ln(shared.ratio!!)).isCloseTo((ln(plain.high!!) - ln(plain.ratio!!)) * sqrt(4.0 / 3.0), within(1e-9))
        assertThat(shared.why).contains("for pairs that share a window")
    }

    @Test
    fun `no interval from fewer than two pairs or pairs without spread`() {
        assertThat(PairedRatio.interval(emptyList()).ratio).isNull()
        assertThat(PairedRatio.interval(listOf(ln(0.9))).let { it.ratio to it.low }).isEqualTo(exp(ln(0.9)) to null)
        assertThat(PairedRatio.interval(listOf(ln(0.9), ln(0.9))).why).contains("no spread")
    }

    @Test
    fun `the pairs that would decide a ratio inside the band, beyond it, and on its edge`() {
        // database-cost's virtual ÷ platform threads of 2026-11-29: 8 rounds' log ratios varied 0.0102, at 0.965
        assertThat(PairedRatio.pairsNeeded(0.010150448385246353, 0.9654810147012647, 0.10, 0.95)).isEqualTo(11)
        // 1.37 far beyond the band with pairs as tight as R2DBC's (0.054 standard deviation): the fewest, 2, would not; 3 would
        assertThat(PairedRatio.pairsNeeded(0.054 * 0.054, 1.37, 0.10, 0.95)).isEqualTo(3)
        assertThat(PairedRatio.pairsNeeded(0.01, 1.10, 0.10, 0.95)).isNull()
    }
}
