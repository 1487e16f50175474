package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class DriftTest {
    @Test
    fun `a slope against time, as a share of the mean a minute`() {
        // 1,000 req/s on average, rising 2 req/s each half second: 240 req/s a minute, 24 % of the mean
        val seconds = List(21) { it * 0.5 }
        val rates = seconds.map { 1000.0 + 4.0 * (it - 5.0) }
        val d = Drift.of(seconds, rates)!!
        assertThat(d.perMinute).isCloseTo(0.24, within(1e-9))
        assertThat(d.level).isCloseTo(1000.0, within(1e-9))
        assertThat(d.rising).isTrue()
        assertThat(d.within(0.25)).isTrue()
        assertThat(d.within(0.20)).isFalse()
    }

    @Test
    fun `seconds that move together widen the interval by the square root of their autocorrelation time`() {
        val xs = listOf(10.0, 12.0, 11.0, 14.0, 13.0, 15.0, 14.0, 17.0, 16.0, 18.0)
        val at = xs.indices.map { it.toDouble() }
        val plain = Trend.slope(xs, at)
        assertThat(plain.perStep).isCloseTo(Trend.slope(xs).perStep, within(1e-12))
        assertThat(plain.high - plain.low).isCloseTo(Trend.slope(xs).high - Trend.slope(xs).low, within(1e-12))
        val spells = Trend.slope(xs, at, autocorrelation = 2.0)
        assertThat(spells.perStep).isEqualTo(plain.perStep)
        // √2 on the standard error, and the t quantile on 10 ÷ 2 − 2 = 3 degrees of freedom instead of 8
        val t3 = org.apache.commons.statistics.distribution.TDistribution.of(3.0).inverseCumulativeProbability(0.975)
        val t8 = org.apache.commons.statistics.distribution.TDistribution.of(8.0).inverseCumulativeProbability(0.975)
        assertThat((spells.high - spells.low) / (plain.high - plain.low)).isCloseTo(kotlin.math.sqrt(2.0) * t3 / t8, within(1e-9))
    }

    @Test
    fun `no drift without three points, a span of time or a level`() {
        assertThat(Drift.of(listOf(1.0, 2.0), listOf(5.0, 6.0))).isNull()
        assertThat(Drift.of(listOf(1.0, 2.0, 3.0), listOf(0.0, 0.0, 0.0))).isNull()
        assertThat(WindowPrecision.autocorrelationTime(listOf(3.0, 3.0, 3.0, 3.0))).isEqualTo(1.0)
    }
}
