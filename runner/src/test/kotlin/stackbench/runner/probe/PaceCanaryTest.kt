package stackbench.runner.probe

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.time.Duration

class PaceCanaryTest {
    @Test
    fun `the piece of work is fixed, so every reading times the same work`() {
        assertThat(PaceCanary.piece(42)).isEqualTo(PaceCanary.piece(42))
        assertThat(PaceCanary.piece(42)).isNotEqualTo(PaceCanary.piece(43))
    }

    @Test
    fun `a calibration and a window each return readings of the thread's CPU time`() {
        val canary = PaceCanary(interval = Duration.ofMillis(20), pieces = 2)
        val calibration = canary.calibrate(Duration.ofMillis(200))!!
        assertThat(calibration.readings).isGreaterThan(2)
        assertThat(calibration.medianNs).isGreaterThan(0.0)
        assertThat(calibration.p10Ns).isLessThanOrEqualTo(calibration.medianNs)
        assertThat(calibration.p90Ns).isGreaterThanOrEqualTo(calibration.medianNs)
        canary.start()
        Thread.sleep(200)
        val window = canary.stop()!!
        assertThat(window.readings).isGreaterThanOrEqualTo(2)
        assertThat(window.relative).isNull()
    }
}
