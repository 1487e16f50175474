package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import java.util.Random

class TrendTest {
    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5")
    fun `a rising ramp is not flat`(seed: Long) {
        // +1 % of the level per second over 30 s, 2 % noise
        val xs = Series(seed, 0.02).ramp(2000.0, 2600.0, 30).build()
        val s = Trend.slope(xs)
        assertThat(s.low).isGreaterThan(0.0)
        assertThat(Trend.flat(xs, tolerance = 0.05)).isFalse()
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5")
    fun `a noisy flat series is flat`(seed: Long) {
        assertThat(Trend.flat(Series(seed, 0.03).hold(2000.0, 30).build(), tolerance = 0.05)).isTrue()
    }

    @Test
    fun `a significant but negligible slope is flat`() {
        // 0.02 % of the level over the whole series, measured with almost no noise: significant, and negligible
        val xs = Series(5, 0.00001).ramp(2000.0, 2000.4, 20).build()
        val s = Trend.slope(xs)
        assertThat(s.low).isGreaterThan(0.0)
        assertThat(Trend.flat(xs, tolerance = 0.01)).isTrue()
        assertThat(Trend.flat(xs, tolerance = 0.00001)).isFalse()
    }

    @Test
    fun `a straight line has its exact slope and no interval`() {
        val s = Trend.slope(List(10) { 100.0 + 3.0 * it })
        assertThat(s.perStep).isCloseTo(3.0, within(1e-9))
        assertThat(s.low).isCloseTo(3.0, within(1e-9))
        assertThat(s.high).isCloseTo(3.0, within(1e-9))
        assertThat(s.n).isEqualTo(10)
        assertThat(Trend.flat(List(10) { 100.0 }, tolerance = 0.0)).isTrue()
    }

    @Test
    fun `the 95 % interval contains the true slope about 95 % of the time`() {
        val rng = Random(42)
        val trials = 2000
        var covered = 0
        repeat(trials) {
            val xs = List(25) { i -> 1000.0 + 4.0 * i + 30.0 * rng.nextGaussian() }
            val s = Trend.slope(xs)
            if (s.low <= 4.0 && 4.0 <= s.high) covered++
        }
        assertThat(covered.toDouble() / trials).isBetween(0.935, 0.965)
    }

    @Test
    fun `fewer than three points have no interval and are not flat`() {
        assertThat(Trend.slope(listOf(1.0, 3.0))).isEqualTo(Trend.Slope(2.0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 2))
        assertThat(Trend.slope(listOf(1.0)).perStep).isNaN()
        assertThat(Trend.slope(emptyList()).n).isEqualTo(0)
        assertThat(Trend.flat(listOf(1.0, 1.0), tolerance = 0.05)).isFalse()
    }
}
