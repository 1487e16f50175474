package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.data.Offset
import org.junit.jupiter.api.Test
import java.util.Random
import kotlin.math.exp
import kotlin.math.ln

class VarianceComponentsTest {

    @Test
    fun `processes that differ only between them have no within part, and windows of one level have no between part`() {
        val between = Components.of(listOf(listOf(100.0, 100.0), listOf(110.0, 110.0), listOf(90.0, 90.0)))!!
        assertThat(between.within).isEqualTo(0.0)
        val means = listOf(ln(100.0), ln(110.0), ln(90.0))
        val m = means.average()
        assertThat(between.between).isCloseTo(means.sumOf { (it - m) * (it - m) } / 2, Offset.offset(1e-12))
        val within = Components.of(listOf(listOf(90.0, 110.0), listOf(110.0, 90.0)))!!
        assertThat(within.between).isEqualTo(0.0)
        assertThat(within.within!!).isGreaterThan(0.0)
        assertThat(within.windowsPerProcess).isEqualTo(2.0)
    }

    @Test
    fun `one window a process cannot tell the components apart, and one process gives none`() {
        val c = Components.of(listOf(listOf(100.0), listOf(104.0), listOf(98.0)))!!
        assertThat(c.within).isNull()
        assertThat(c.between).isGreaterThan(0.0)
        assertThat(Components.windowsPerProcess(c, 60.0, 10.0)).isNull()
        assertThat(Components.of(listOf(listOf(100.0, 101.0)))).isNull()
    }

    @Test
    fun `the components are recovered from a simulated lab, 200 processes of 5 windows`() {
        val rnd = Random(7)
        val sb = 0.05
        val sw = 0.02
        val processes = List(200) {
            val level = ln(1000.0) + sb * rnd.nextGaussian()
            List(5) { exp(level + sw * rnd.nextGaussian()) }
        }
        val c = Components.of(processes)!!
        assertThat(c.between).isCloseTo(sb * sb, Offset.offset(sb * sb * 0.25))
        assertThat(c.within!!).isCloseTo(sw * sw, Offset.offset(sw * sw * 0.1))
    }

    @Test
    fun `Kalibera and Jones's allocation puts more windows in a process the dearer a process and the smaller its own part`() {
        val c = VarianceComponents(3, 2.0, within = 0.0004, between = 0.0001)
        // sqrt(60 / 6 × 0.0004 / 0.0001) = sqrt(40) = 6.3 → 7
        assertThat(Components.windowsPerProcess(c, 60.0, 6.0)).isEqualTo(7)
        assertThat(Components.windowsPerProcess(c.copy(between = 0.01), 60.0, 6.0)).isEqualTo(1)
    }

    @Test
    fun `the processes a side needed grow as the ratio nears the band's edge, and a ratio on the edge is never decided`() {
        val c = VarianceComponents(2, 1.0, within = null, between = 0.02 * 0.02)
        // 2× against ±10 %: two processes a side (Welch df 2, t 4.30 at 95 %: half-width 0.086 on the log scale)
        assertThat(Components.processesNeeded(c, c, 2.0, 0.10, 0.95)).isEqualTo(2)
        // at the 99.44 % of a first look of two, df 2 gives t of about 13: half-width about 0.27, still inside ln 2 − ln 1.1 = 0.60
        assertThat(Components.processesNeeded(c, c, 2.0, 0.10, 0.9944)).isEqualTo(2)
        val near = Components.processesNeeded(c, c, 1.15, 0.10, 0.95)!!
        assertThat(near).isGreaterThan(2)
        assertThat(Components.processesNeeded(c, c, 1.10, 0.10, 0.95)).isNull()
        // the same within the band: decided when the whole interval fits inside it
        assertThat(Components.processesNeeded(c, c, 1.0, 0.10, 0.95)).isEqualTo(2)
        assertThat(Components.processesNeeded(c, c, 0.5, 0.10, 0.95)).isEqualTo(2)
    }
}
