package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import kotlin.math.exp
import kotlin.math.ln

class ProcessRatioTest {
    private fun at(vararg logs: Double) = logs.map { 100 * exp(it) }

    @Test
    fun `equal spreads, three processes a side, against the hand computation`() {
        // ln a = ln 100 + {0.1, 0.2, 0.3}, ln b = ln 100 + {-0.1, 0, 0.1}: d = 0.2, ratio e^0.2 = 1.221403
        // s² = 0.01 a side; se = √(0.01/3 + 0.01/3) = 0.0816497
        // df = (0.02/3)² / (2 · (0.01/3)² / 2) = 4; t(4, 0.975) = 2.776445 (the t table)
        // half width = 2.776445 · 0.0816497 = 0.226696; interval e^(0.2 ∓ 0.226696) = [0.973657, 1.532186]
        val r = ProcessRatio.interval(at(0.1, 0.2, 0.3), at(-0.1, 0.0, 0.1))
        assertThat(r.ratio!!).isCloseTo(1.221403, within(1e-6))
        assertThat(r.df!!).isCloseTo(4.0, within(1e-9))
        assertThat(r.low!!).isCloseTo(0.973657, within(1e-5))
        assertThat(r.high!!).isCloseTo(1.532186, within(1e-5))
        assertThat(r.nA).isEqualTo(3)
        assertThat(r.nB).isEqualTo(3)
        assertThat(r.why).isEqualTo("Welch t on logarithms of 3 and 3 process means, df = 4.0, 95.0 %")
    }

    @Test
    fun `unequal spreads and sizes take Welch's degrees of freedom`() {
        // ln a = {0, 0.1, 0.2, 0.3}: mean 0.15, s² = 0.05/3; ln b = {0, 0.05, 0.1}: mean 0.05, s² = 0.0025
        // va = s²/4 = 0.0041667, vb = s²/3 = 0.00083333, se² = 0.005
        // df = 0.005² / (0.0041667²/3 + 0.00083333²/2) = 2.5e-5 / 6.1343e-6 = 4.0755
        val r = ProcessRatio.interval(at(0.0, 0.1, 0.2, 0.3), at(0.0, 0.05, 0.1))
        assertThat(r.ratio!!).isCloseTo(exp(0.1), within(1e-12))
        assertThat(r.df!!).isCloseTo(4.0755, within(1e-4))
        // symmetric on the log scale, and the t quantile lies between the table's df 4 (2.7764) and df 5 (2.5706)
        assertThat(ln(r.high!!) - 0.1).isCloseTo(0.1 - ln(r.low!!), within(1e-12))
        assertThat((ln(r.high!!) - 0.1) / Math.sqrt(0.005)).isBetween(2.5706, 2.7764)
    }

    @Test
    fun `one process a side refuses an interval`() {
        val r = ProcessRatio.interval(listOf(120.0), listOf(100.0))
        assertThat(r.ratio!!).isCloseTo(1.2, within(1e-12))
        assertThat(r.hasInterval).isFalse()
        assertThat(r.low).isNull()
        assertThat(r.high).isNull()
        assertThat(r.df).isNull()
        assertThat(r.why).isEqualTo("1 process(es) on one side; an interval needs 2 a side")
        assertThat(ProcessRatio.interval(listOf(120.0, 121.0, 119.0), listOf(100.0)).hasInterval).isFalse()
    }

    @Test
    fun `no spread on either side refuses an interval rather than a zero-width one`() {
        val r = ProcessRatio.interval(listOf(110.0, 110.0), listOf(100.0, 100.0))
        assertThat(r.ratio!!).isCloseTo(1.1, within(1e-12))
        assertThat(r.hasInterval).isFalse()
    }

    @Test
    fun `no spread on one side leaves the other side's degrees of freedom`() {
        val r = ProcessRatio.interval(listOf(100.0, 100.0, 100.0), at(-0.1, 0.0, 0.1))
        assertThat(r.df!!).isCloseTo(2.0, within(1e-12))
        // t(2, 0.975) = 4.302653; se = √(0 + 0.01/3) = 0.057735; half = 0.248414
        assertThat(ln(r.high!!)).isCloseTo(0.248414, within(1e-5))
    }

    @Test
    fun `the ratio the other way round is the reciprocal interval`() {
        val ab = ProcessRatio.interval(at(0.1, 0.25, 0.3), at(-0.1, 0.0, 0.05, 0.1))
        val ba = ProcessRatio.interval(at(-0.1, 0.0, 0.05, 0.1), at(0.1, 0.25, 0.3))
        assertThat(ba.ratio!!).isCloseTo(1 / ab.ratio!!, within(1e-12))
        assertThat(ba.low!!).isCloseTo(1 / ab.high!!, within(1e-12))
        assertThat(ba.high!!).isCloseTo(1 / ab.low!!, within(1e-12))
    }

    @Test
    fun `a higher confidence widens the interval`() {
        val r95 = ProcessRatio.interval(at(0.1, 0.2, 0.3), at(-0.1, 0.0, 0.1))
        val r99 = ProcessRatio.interval(at(0.1, 0.2, 0.3), at(-0.1, 0.0, 0.1), confidence = 0.99)
        // t(4, 0.995) = 4.604095; half = 4.604095 · 0.0816497 = 0.375923
        assertThat(ln(r99.high!!) - 0.2).isCloseTo(0.375923, within(1e-5))
        assertThat(r99.low!!).isLessThan(r95.low!!)
    }

    @Test
    fun `a value of zero has no logarithm and gives no ratio`() {
        val r = ProcessRatio.interval(listOf(0.0, 1.0), listOf(1.0, 2.0))
        assertThat(r.ratio).isNull()
        assertThat(r.hasInterval).isFalse()
        assertThat(ProcessRatio.interval(emptyList(), listOf(1.0)).ratio).isNull()
    }
}
