package stackbench.apps.endpoints.io

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.apps.endpoints.config.StackbenchProperties
import java.time.Duration

class WarmupTruthClockTest {

    private fun clock(seconds: Long, extraMs: Long) =
        WarmupTruthClock(StackbenchProperties(warmupTruth = StackbenchProperties.WarmupTruth(seconds, extraMs)))

    @Test
    fun `off by default, no extra and nothing in info`() {
        val off = WarmupTruthClock(StackbenchProperties())
        assertThat(off.on).isFalse()
        assertThat(off.extraNanos()).isZero()
        assertThat(off.delay(200)).isEqualTo(Duration.ofMillis(200))
        assertThat(off.delayMillis(200)).isEqualTo(200)
        assertThat(off.info()).isNull()
    }

    @Test
    fun `the clock starts at the first affected request, not at start-up`() {
        val truth = clock(seconds = 30, extraMs = 500)
        assertThat(truth.on).isTrue()
        Thread.sleep(50)
        assertThat(truth.info()).`as`("not started").isNull()
        val before = System.currentTimeMillis()
        val first = truth.extraNanos()
        val after = System.currentTimeMillis()
        // at t ~ 0 the full extra: 500 ms less the few µs since the clock started
        assertThat(first).isBetween(499_000_000L, 500_000_000L)
        val info = truth.info()!!
        assertThat(info.seconds).isEqualTo(30)
        assertThat(info.extraMs).isEqualTo(500)
        assertThat(info.startedAtEpochMs).isBetween(before, after)
        assertThat(info.endsAtEpochMs).isEqualTo(info.startedAtEpochMs + 30_000)
        // later requests see the same start and a smaller extra
        Thread.sleep(20)
        assertThat(truth.extraNanos()).isLessThan(first)
        assertThat(truth.info()).isEqualTo(info)
    }

    @Test
    fun `the delays carry the extra, exact for a sleep and rounded up to ms for a coroutine delay`() {
        val truth = clock(seconds = 3600, extraMs = 300)
        assertThat(truth.delay(200)).isBetween(Duration.ofMillis(499), Duration.ofMillis(500))
        assertThat(truth.delayMillis(200)).isEqualTo(500)
    }

    @Test
    fun `the extra ends at T`() {
        val truth = clock(seconds = 1, extraMs = 100)
        truth.extraNanos()
        Thread.sleep(1_050)
        assertThat(truth.extraNanos()).isZero()
        assertThat(truth.delay(5)).isEqualTo(Duration.ofMillis(5))
    }

    @Test
    fun `the properties are checked`() {
        assertThatThrownBy { StackbenchProperties.WarmupTruth(-1, 0) }.hasMessageContaining("seconds")
        assertThatThrownBy { StackbenchProperties.WarmupTruth(10, 60_001) }.hasMessageContaining("extra-ms")
        assertThatThrownBy { StackbenchProperties.WarmupTruth(0, 100) }.hasMessageContaining("needs stackbench.warmup-truth.seconds")
        assertThat(clock(seconds = 5, extraMs = 0).on).`as`("on with no extra: a control run").isTrue()
    }

    @Test
    fun `skipped requests neither wait nor start the clock`() {
        val truth = WarmupTruthClock(StackbenchProperties(warmupTruth = StackbenchProperties.WarmupTruth(30, 500, skipRequests = 1)))
        assertThat(truth.extraNanos()).`as`("the verification call").isZero()
        assertThat(truth.info()).isNull()
        assertThat(truth.extraNanos()).`as`("the load's first request").isBetween(499_000_000L, 500_000_000L)
        assertThat(truth.info()).isNotNull()
    }
}
