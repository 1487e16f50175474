package stackbench.runner.scaffold

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class PilotTest {
    @Test
    fun `no pilot is the default, said so`() {
        val c = Pilot.choose(null, 0.05)
        assertThat(c.processes).isEqualTo(3)
        assertThat(c.comment.single()).contains("no pilot")
    }

    @Test
    fun `a calm pilot needs few processes, a noisy one more, never past the most`() {
        val calm = Pilot.choose(PilotFigures(listOf(1000.0, 1002.0, 998.0), 4, 10), 0.05)
        assertThat(calm.processes).isEqualTo(2)
        assertThat(calm.comment[0]).contains("1000.0, 1002.0, 998.0 req/s")
        val noisy = Pilot.choose(PilotFigures(listOf(1000.0, 1040.0, 970.0), 4, 10), 0.05)
        assertThat(noisy.processes).isBetween(3, Pilot.MAX)
        val wild = Pilot.choose(PilotFigures(listOf(1000.0, 1500.0, 700.0), 4, 10), 0.05)
        assertThat(wild.processes).isEqualTo(Pilot.MAX)
        assertThat(wild.comment[1]).contains("20 a side would not")
    }
}
