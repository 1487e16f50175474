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
    fun `a scaled window is lengthened to hold 20 round trips at 1,4 times the mean, never past the suite's own length`() {
        // 400 connections at 200 req/s: a round trip takes 2 s on average; 20 of them at 1.4 x 2 s take 56 s
        assertThat(WindowRule.length(s(6), s(30), 400, 200.0)).isEqualTo(s(30))
        // 400 connections at 800 req/s: 0.5 s on average, 20 x 1.4 x 0.5 = 14 s
        assertThat(WindowRule.length(s(6), s(30), 400, 800.0)).isEqualTo(s(14))
        // whole seconds, rounded up: 10 connections at 60 req/s, 20 x 1.4 x 0.167 s = 4.67 s
        assertThat(WindowRule.length(s(1), s(30), 10, 60.0)).isEqualTo(s(5))
    }

    @Test
    fun `a window the suite itself asks for is not lengthened, and an unknown rate changes nothing`() {
        assertThat(WindowRule.length(s(6), s(6), 400, 200.0)).isEqualTo(s(6))
        assertThat(WindowRule.length(s(6), s(30), 400, null)).isEqualTo(s(6))
        assertThat(WindowRule.length(s(6), s(30), 400, 0.0)).isEqualTo(s(6))
    }

    @Test
    fun `a window may grow past the suite's length to a cap it gives, to hold 20 round trips`() {
        // 400 connections at 40 req/s (primes to 300,000 on one CPU): 10 s a round trip on average, 280 s for 20 at 1.4x
        assertThat(WindowRule.length(s(30), s(180), 400, 40.0)).isEqualTo(s(180))
        assertThat(WindowRule.length(s(30), s(300), 400, 40.0)).isEqualTo(s(280))
        // at 400 req/s: 28 s hold them, so the suite's 30 s stands
        assertThat(WindowRule.length(s(30), s(300), 400, 400.0)).isEqualTo(s(30))
    }

    @Test
    fun `the window sized at the warm-up's mean round trip holds 20 at a p50 up to 1,4 times that mean`() {
        // measured: Tomcat at 300,000, 400 connections, 48.1 req/s (mean 8.3 s) and a p50 of 10.2 s
        val window = WindowRule.length(s(30), s(600), 400, 48.1)
        assertThat(WindowRule.roundTrips(window.seconds.toDouble(), 10_200.0)!!).isGreaterThanOrEqualTo(20.0)
        // at a p50 of 1.4x the mean it still holds 20
        assertThat(WindowRule.roundTrips(window.seconds.toDouble(), 1.4 * 400 / 48.1 * 1000)!!).isGreaterThanOrEqualTo(20.0)
    }

    @Test
    fun `round trips are the window over the median latency`() {
        assertThat(WindowRule.roundTrips(6.0, 2000.0)).isEqualTo(3.0)
        assertThat(WindowRule.roundTrips(6.0, null)).isNull()
    }
}
