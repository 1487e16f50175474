package stackbench.runner.probe

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class CpuStealTest {
    /** OSHI's tick order: user, nice, system, idle, iowait, irq, softirq, steal. */
    private fun ticks(busy: Long, idle: Long, steal: Long) = longArrayOf(busy, 0, 0, idle, 0, 0, 0, steal)

    @Test
    fun `steal is the stolen share of the named CPUs' ticks over the window`() {
        val before = mapOf(0 to ticks(100, 900, 10), 1 to ticks(500, 500, 0))
        // CPU 1: 90 ticks busy, 10 stolen; CPU 0: 50 busy, 50 idle, nothing stolen
        val after = mapOf(0 to ticks(150, 950, 10), 1 to ticks(590, 500, 10))
        assertThat(CpuSteal.share(before, after, listOf(1))!!).isCloseTo(0.10, within(1e-9))
        assertThat(CpuSteal.share(before, after, listOf(0))).isEqualTo(0.0)
        assertThat(CpuSteal.share(before, after, listOf(0, 1))!!).isCloseTo(0.05, within(1e-9))
    }

    @Test
    fun `no ticks, no CPUs or a CPU missing from a reading read as unknown, not as no steal`() {
        val same = mapOf(0 to ticks(1, 1, 0))
        assertThat(CpuSteal.share(same, same, listOf(0))).isNull()
        assertThat(CpuSteal.share(same, same, emptyList())).isNull()
        assertThat(CpuSteal.share(same, mapOf(1 to ticks(2, 2, 0)), listOf(1))).isNull()
    }

    @Test
    fun `this machine's counters are read for every CPU, by CPU number`() {
        val read = CpuSteal.read(oshi.nativefree.SystemInfo().hardware.processor)!!
        assertThat(read.keys).containsAll((0 until Runtime.getRuntime().availableProcessors()).toList())
        assertThat(read.values).allSatisfy { assertThat(it.size).isGreaterThan(oshi.hardware.CentralProcessor.TickType.STEAL.index) }
    }
}
