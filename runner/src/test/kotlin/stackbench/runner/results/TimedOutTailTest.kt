package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class TimedOutTailTest {
    private fun window(answers: Long, timedOut: Long) =
        Fixtures.load(answers / 10.0).copy(errors = if (timedOut > 0) mapOf("timeout" to timedOut) else emptyMap())

    @Test
    fun `no timeout hides nothing`() {
        assertThat(TimedOutTail.flag(window(11_144, 0), 0.99, "p99")).isNull()
    }

    @Test
    fun `the event loop's window at 300,000 - 97 timeouts are most of the 1 percent tail, so its p99 is unknown, its p50 and p90 are not`() {
        // docs/runs/cpu-bound-event-loop: 11,144 answers and 97 requests past wrk's 30 s timeout; the tail beyond p99 of
        // the 11,241 sent is 112.4 requests, 86 % of which were never timed
        val w = window(11_144, 97)
        val p99 = TimedOutTail.flag(w, 0.99, "p99")!!
        assertThat(p99.code).isEqualTo(TimedOutTail.CODE)
        assertThat(p99.message).contains("97 of 11241 requests timed out").contains("86 % of the 1.0 % tail").contains("above the recorded one")
        assertThat(TimedOutTail.flag(w, 0.90, "p90")).isNull()  // 97 of a 1,124-request tail: under a tenth
        assertThat(TimedOutTail.flag(w, 0.50, "p50")).isNull()
    }

    @Test
    fun `a few timeouts under a tenth of the tail leave the percentile counted - Tomcat's 8 of 11,835`() {
        assertThat(TimedOutTail.flag(window(11_827, 8), 0.99, "p99")).isNull() // 8 of a 118-request tail
        assertThat(TimedOutTail.flag(window(11_827, 12), 0.99, "p99")).isNotNull() // 12 of 118: a tenth
    }

    @Test
    fun `timeouts past the whole tail put the percentile past the timeout itself`() {
        val flag = TimedOutTail.flag(window(1_000, 30), 0.99, "p99")!!
        assertThat(flag.message).contains("past the timeout")
    }

    @Test
    fun `other errors are not timeouts - their latency is known or does not belong to the tail`() {
        val w = Fixtures.load(100.0).copy(errors = mapOf("status" to 500L, "connect" to 40L))
        assertThat(TimedOutTail.flag(w, 0.99, "p99")).isNull()
    }
}
