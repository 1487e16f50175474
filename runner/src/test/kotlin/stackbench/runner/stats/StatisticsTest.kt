package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class StatisticsTest {
    @Test
    fun `an estimate has the median, an interval around it, and its spread`() {
        val e = Statistics.estimate(listOf(100.0, 104.0, 98.0, 101.0, 99.0))
        assertThat(e.median).isEqualTo(100.0)
        assertThat(e.low!!).isLessThanOrEqualTo(100.0).isGreaterThanOrEqualTo(98.0)
        assertThat(e.high!!).isGreaterThanOrEqualTo(100.0).isLessThanOrEqualTo(104.0)
        assertThat(e.spread).isCloseTo(0.06, within(1e-9))
        assertThat(e.noisy).isFalse()
    }

    @Test
    fun `repetitions that spread more than the threshold are noisy`() {
        assertThat(Statistics.estimate(listOf(100.0, 130.0, 95.0)).noisy).isTrue()
    }

    @Test
    fun `one repetition has no interval and cannot tell a change`() {
        val e = Statistics.estimate(listOf(42.0))
        assertThat(e.low).isNull()
        val c = Statistics.change(listOf(100.0), listOf(150.0))
        assertThat(c.verdict).isEqualTo(Verdict.CANNOT_TELL)
        assertThat(c.relative).isCloseTo(0.5, within(1e-9))
    }

    @Test
    fun `a clear difference over five repetitions is called, a small one within the noise is not`() {
        val base = listOf(1000.0, 1020.0, 990.0, 1010.0, 1005.0)
        val better = Statistics.change(base, listOf(1500.0, 1480.0, 1530.0, 1510.0, 1495.0))
        assertThat(better.verdict).isEqualTo(Verdict.BETTER)
        assertThat(better.low!!).isGreaterThan(0.4)
        assertThat(better.pValue!!).isLessThan(0.05)
        val worse = Statistics.change(base, base.map { it * 0.7 })
        assertThat(worse.verdict).isEqualTo(Verdict.WORSE)
        val same = Statistics.change(base, listOf(1003.0, 995.0, 1015.0, 1001.0, 1012.0))
        assertThat(same.verdict).isEqualTo(Verdict.NO_CHANGE)
    }

    @Test
    fun `the same input gives the same interval`() {
        val v = listOf(3.0, 7.0, 5.0, 9.0, 4.0, 6.0)
        assertThat(Statistics.estimate(v)).isEqualTo(Statistics.estimate(v))
    }
}
