package stackbench.runner.plan

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.time.Duration

class EstimatesTest {
    @Test
    fun `the time left keeps the pace of the cells already finished`() {
        // the virtual-threads suite: 2 cells estimated at 36 s each took 105 s each (a fresh app primed per cell,
        // a counted run bounded by 10 threads, not by 30 connections)
        val left = Estimates.paced(Duration.ofMinutes(10), spent = Duration.ofSeconds(210), planned = Duration.ofSeconds(72))
        assertThat(left.toSeconds()).isEqualTo(1750)
        // nothing finished yet: the plan's own estimate
        assertThat(Estimates.paced(Duration.ofMinutes(10), Duration.ZERO, Duration.ZERO)).isEqualTo(Duration.ofMinutes(10))
        // faster than planned shortens it too
        assertThat(Estimates.paced(Duration.ofMinutes(10), Duration.ofSeconds(30), Duration.ofSeconds(60))).isEqualTo(Duration.ofMinutes(5))
    }
}
