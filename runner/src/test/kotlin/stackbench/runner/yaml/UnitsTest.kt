package stackbench.runner.yaml

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import java.time.Duration

class UnitsTest {
    @ParameterizedTest
    @CsvSource("500ms,500", "30s,30000", "1.5s,1500", "2m,120000", "1h,3600000", "0s,0")
    fun `durations`(text: String, ms: Long) {
        assertThat(Units.duration(text)).isEqualTo(Duration.ofMillis(ms))
    }

    @ParameterizedTest
    @CsvSource("30", "30 seconds", "-1s", "s", "1d")
    fun `not durations`(text: String) {
        assertThat(Units.duration(text)).isNull()
    }

    @ParameterizedTest
    @CsvSource("1GiB,1073741824", "512MiB,536870912", "1g,1073741824", "1GB,1000000000", "64M,67108864")
    fun `sizes`(text: String, bytes: Long) {
        assertThat(Units.size(text)).isEqualTo(bytes)
    }

    @ParameterizedTest
    @CsvSource("30000,30s", "500,500ms", "120000,2m", "1500,1500ms")
    fun `durations print back the way they are written`(ms: Long, text: String) {
        assertThat(Units.formatDuration(Duration.ofMillis(ms))).isEqualTo(text)
    }
}
