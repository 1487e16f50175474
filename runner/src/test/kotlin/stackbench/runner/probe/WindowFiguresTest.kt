package stackbench.runner.probe

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import stackbench.runner.ceiling.Ceilings
import stackbench.runner.results.Ceiling
import stackbench.runner.results.Fixtures

class WindowFiguresTest {
    private val pool64 = Ceiling(Ceilings.LITTLE, 127.0, "64 Dispatchers.IO threads ÷ 505 ms", concurrency = 64)

    @Test
    fun `a closed window behind a pool holds its answers over the pool in waves`() {
        // 127.7 req/s for 10 s (the fixture's window) = 1,277 answers in waves of 64
        assertThat(WindowFigures.waves(Fixtures.load(127.7), closed = true, ceiling = pool64)!!).isCloseTo(1277.0 / 64, within(1e-9))
    }

    @Test
    fun `no waves for an open load, a CPU-time ceiling, or no ceiling at all`() {
        assertThat(WindowFigures.waves(Fixtures.load(127.7), closed = false, ceiling = pool64)).isNull()
        assertThat(WindowFigures.waves(Fixtures.load(127.7), closed = true, ceiling = Ceiling(Ceilings.CPU_TIME, 1000.0, "1 CPU", concurrency = 64))).isNull()
        assertThat(WindowFigures.waves(Fixtures.load(127.7), closed = true, ceiling = null)).isNull()
        assertThat(WindowFigures.waves(null, closed = true, ceiling = pool64)).isNull()
    }

    @Test
    fun `a closed window leaves out its start-up, the first second or its first two round trips`() {
        assertThat(WindowFigures.startupSeconds(30, 3000.0)).isEqualTo(1) // /noop: 10 ms round trips
        assertThat(WindowFigures.startupSeconds(30, null)).isEqualTo(1) // an open load
        assertThat(WindowFigures.startupSeconds(240, 24.0)).isEqualTo(20) // 10 s round trips
        assertThat(WindowFigures.startupSeconds(10, 2.0)).isEqualTo(5) // never more than half the window
    }

    /** Cooperative yield() at primes to 300,000 as measured: 400 requests in step, then spread out, then 38 req/s. */
    private val coopStart = listOf(0.0) + List(6) { 0.2 } + List(2) { 127.0 } + List(4) { 32.3 } + List(2) { 6.4 } + List(3) { 65.6 } +
        List(2) { 11.1 } + List(220) { i -> 38.4 + (if (i % 3 == 0) 3.0 else -1.5) }

    @Test
    fun `the start-up of 400 requests in step is no change of level of the app`() {
        // 240 s at a p50 of 10 s: 24 round trips, so the first 20 s are the start-up
        val load = Fixtures.load(37.8).let { it.copy(wallSeconds = 240.0, latency = it.latency.copy(p50 = 10_000.0)) }
        val window = WindowFigures.shape(coopStart, load, closed = true, plannedMs = 30_000)!!
        assertThat(window.shape).isEqualTo("flat")
        assertThat(window.steadyFromSecond).isEqualTo(20)
        assertThat(window.reason).startsWith("from second 21 on, after the closed load's start-up (2 round trips): 1 segment")
        assertThat(window.roundTripsPerConnection).isEqualTo(24.0)
        // read from the second second on, as before, the same series was slowing
        assertThat(WindowFigures.shape(coopStart, load, closed = false, plannedMs = null)!!.shape).isEqualTo("slowing")
        // and read again from the record, the same
        assertThat(WindowFigures.reshape(window.copy(shape = "slowing"), coopStart)).isEqualTo(window)
    }
}
