package stackbench.downstream

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.junit.jupiter.api.Test

class StallScheduleTest {
    private val schedule = StallSchedule(everyMs = 5000, windowMs = 1000, holdMs = 500)

    @ParameterizedTest(name = "arriving {0} ms after start holds {1} ms")
    @CsvSource("0,500", "999,500", "1000,0", "4999,0", "5000,500", "5999,500", "6000,0", "12345,0", "15500,500")
    fun `requests arriving in the window are held, the others not`(sinceStart: Long, hold: Long) {
        assertThat(schedule.holdFor(sinceStart)).isEqualTo(hold)
    }

    @Test
    fun `off holds nothing, ever`() {
        assertThat((0L..20_000L step 250).map { StallSchedule.OFF.holdFor(it) }).containsOnly(0L)
        assertThat(StallSchedule.OFF.on).isFalse()
    }

    @Test
    fun `a window as long as the period holds every request`() {
        assertThat((0L..3000L step 7).map { StallSchedule(1000, 1000, 5).holdFor(it) }).containsOnly(5L)
    }

    @Test
    fun `the window must fit in the period and every figure be positive`() {
        assertThatThrownBy { StallSchedule(1000, 1001, 5) }.hasMessageContaining("--stall-window must be 1..1000")
        assertThatThrownBy { StallSchedule(1000, 0, 5) }.hasMessageContaining("--stall-window")
        assertThatThrownBy { StallSchedule(1000, 100, 0) }.hasMessageContaining("--stall-hold")
        assertThatThrownBy { StallSchedule(0, 100, 5) }.hasMessageContaining("--stall-every")
    }
}
