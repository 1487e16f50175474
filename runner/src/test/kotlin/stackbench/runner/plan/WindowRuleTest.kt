package stackbench.runner.plan

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.time.Duration

class WindowRuleTest {
    private fun s(n: Long) = Duration.ofSeconds(n)

    @Test
    fun `a window that holds enough round trips is kept`() {
        // 50 connections at 5,000 req/s: a round trip takes 10 ms; 20 of them take 0.2 s
        assertThat(WindowRule.length(s(5), s(30), 50, 5000.0)).isEqualTo(s(5))
    }

    @Test
    fun `a scaled window is lengthened to hold 20 round trips, never past the suite's own length`() {
        // 400 connections at 200 req/s: a round trip takes 2 s; 20 of them take 40 s
        assertThat(WindowRule.length(s(6), s(30), 400, 200.0)).isEqualTo(s(30))
        // 400 connections at 400 req/s: 1 s per round trip, 20 s
        assertThat(WindowRule.length(s(6), s(30), 400, 400.0)).isEqualTo(s(20))
        // whole seconds, rounded up
        assertThat(WindowRule.length(s(1), s(30), 10, 70.0)).isEqualTo(s(3))
    }

    @Test
    fun `a window the suite itself asks for is not lengthened, and an unknown rate changes nothing`() {
        assertThat(WindowRule.length(s(6), s(6), 400, 200.0)).isEqualTo(s(6))
        assertThat(WindowRule.length(s(6), s(30), 400, null)).isEqualTo(s(6))
        assertThat(WindowRule.length(s(6), s(30), 400, 0.0)).isEqualTo(s(6))
    }

    @Test
    fun `a window may grow past the suite's length to a cap it gives, to hold 20 round trips`() {
        // 400 connections at 40 req/s (primes to 300,000 on one CPU): 10 s a round trip, 200 s for 20
        assertThat(WindowRule.length(s(30), s(180), 400, 40.0)).isEqualTo(s(180))
        assertThat(WindowRule.length(s(30), s(300), 400, 40.0)).isEqualTo(s(200))
        // at 400 req/s: 20 s hold them, so the suite's 30 s stands
        assertThat(WindowRule.length(s(30), s(300), 400, 400.0)).isEqualTo(s(30))
    }

    @Test
    fun `round trips are the window over the median latency`() {
        assertThat(WindowRule.roundTrips(6.0, 2000.0)).isEqualTo(3.0)
        assertThat(WindowRule.roundTrips(6.0, null)).isNull()
    }
}
