package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class StatisticsTest {
    @Test
    fun `an estimate describes the median, the range and its spread, with no interval`() {
        val e = Statistics.estimate(listOf(100.0, 104.0, 98.0, 101.0, 99.0))
        assertThat(e.median).isEqualTo(100.0)
        assertThat(e.min to e.max).isEqualTo(98.0 to 104.0)
        assertThat(e.spread).isCloseTo(0.06, within(1e-9))
        assertThat(e.noisy).isFalse()
    }

    @Test
    fun `three or more values that spread more than the threshold are noisy, two never are`() {
        assertThat(Statistics.estimate(listOf(100.0, 130.0, 95.0)).noisy).isTrue()
        assertThat(Statistics.estimate(listOf(100.0, 130.0)).noisy).isFalse()
    }

    @Test
    fun `the median and the variation come from Apache Commons Statistics`() {
        assertThat(Statistics.median(listOf(3.0, 1.0, 2.0, 10.0))).isEqualTo(2.5)
        // sample standard deviation (n - 1) of 2, 4, 4, 4, 5, 5, 7, 9 is 2.138; mean 5
        assertThat(Statistics.variation(listOf(2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0))!!).isCloseTo(2.13809 / 5, within(1e-5))
        assertThat(Statistics.variation(listOf(1.0))).isNull()
    }
}
