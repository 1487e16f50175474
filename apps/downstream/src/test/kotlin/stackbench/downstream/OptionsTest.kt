package stackbench.downstream

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

class OptionsTest {

    @Test
    fun `no arguments listen on 127_0_0_1 8081 without stalls`() {
        assertThat(Options.parse(emptyArray())).isEqualTo(Options(8081, "127.0.0.1", StallSchedule.OFF))
    }

    @Test
    fun `options take their value after = or as the next argument`() {
        val options = Options.parse(arrayOf("--port=9000", "--host", "0.0.0.0", "--stall-every=5000", "--stall-window", "1000", "--stall-hold=500"))
        assertThat(options).isEqualTo(Options(9000, "0.0.0.0", StallSchedule(5000, 1000, 500)))
    }

    @Test
    fun `help is asked with --help or -h`() {
        assertThat(Options.parse(arrayOf("--port=1", "--help"))).isNull()
        assertThat(Options.parse(arrayOf("-h"))).isNull()
        assertThat(Options.USAGE).contains("--stall-every=MS").contains("GET /delay?ms=N")
    }

    @Test
    fun `wrong arguments say what is wrong`() {
        assertThatThrownBy { Options.parse(arrayOf("--port=x")) }.hasMessage("--port must be a whole number, was 'x'")
        assertThatThrownBy { Options.parse(arrayOf("--port=70000")) }.hasMessage("--port must be 0..65535, was 70000")
        assertThatThrownBy { Options.parse(arrayOf("--prot=1")) }.hasMessage("unknown option '--prot'")
        assertThatThrownBy { Options.parse(arrayOf("8081")) }.hasMessage("unexpected argument '8081'")
        assertThatThrownBy { Options.parse(arrayOf("--port")) }.hasMessage("option '--port' needs a value")
        assertThatThrownBy { Options.parse(arrayOf("--stall-every=5000")) }.hasMessageContaining("the stall options go together")
    }
}
