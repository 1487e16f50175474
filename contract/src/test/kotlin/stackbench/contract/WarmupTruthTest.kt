package stackbench.contract

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.junit.jupiter.api.Test

class WarmupTruthTest {
    private val second = 1_000_000_000L

    @ParameterizedTest(name = "T={0}s E={1}ms at t={2}ns: {3}ns")
    @CsvSource(
        "10, 400, 0, 400000000",                 // t = 0: all of E
        "10, 400, -5, 400000000",                // before the start (cannot happen): still E, not more
        "10, 400, 2500000000, 300000000",        // a quarter of T: three quarters of E
        "10, 400, 5000000000, 200000000",        // half of T: half of E
        "10, 400, 9999999999, 0",                // 1 ns before T: 0.04 ns, rounded down
        "10, 400, 10000000000, 0",               // T: nothing
        "10, 400, 99000000000, 0",               // after T: nothing
        "1, 60000, 500000000, 30000000000",      // the largest E: no overflow
        "86400, 60000, 0, 60000000000",          // the longest T
        "0, 400, 0, 0",                          // off
        "10, 0, 0, 0",                           // no extra
    )
    fun `the extra falls linearly from E at the start to 0 at T`(seconds: Long, extraMs: Long, elapsed: Long, expected: Long) {
        assertThat(WarmupTruth.extraNanos(seconds, extraMs, elapsed)).isEqualTo(expected)
    }

    @Test
    fun `it never rises and is E times the time left over T`() {
        var last = Long.MAX_VALUE
        for (tenth in 0..12) {
            val elapsed = tenth * second / 10 * 3 // T = 3 s, in steps of 0.3 s
            val extra = WarmupTruth.extraNanos(3, 250, elapsed)
            assertThat(extra).isLessThanOrEqualTo(last)
            val expected = if (elapsed >= 3 * second) 0.0 else 250e6 * (1 - elapsed / (3.0 * second))
            assertThat(extra.toDouble()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1.0))
            last = extra
        }
    }
}
