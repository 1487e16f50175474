package stackbench.runner.probes

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.data.Offset
import org.junit.jupiter.api.Test
import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.ServerCount

class AllocationProbeTest {
    private fun reading(epochMs: Long, completed: Long, gcMs: Long?, allocated: Long?) =
        ServerCount(epochMs, completed, gcMs = gcMs, allocatedBytes = allocated)

    @Test
    fun `allocation and collections per request come from the app's counters at the window's edges`() {
        // 10 s, 1,000 exchanges, 1 MB allocated, 20 ms of collections
        val r = AllocationProbe.record(reading(1_000, 500, 10, 5_000_000), reading(11_000, 1_500, 30, 6_000_000))
        assertThat(r.notes).isEmpty()
        assertThat(r.figures["bytesPerRequest"]!!).isCloseTo(1_000.0, Offset.offset(1e-9))
        assertThat(r.figures["mbPerSecond"]!!).isCloseTo(0.1, Offset.offset(1e-12))
        assertThat(r.figures["gcMsPerSecond"]!!).isCloseTo(2.0, Offset.offset(1e-12))
        assertThat(r.figures["gcMsPerRequest"]!!).isCloseTo(0.02, Offset.offset(1e-12))
        assertThat(r.figures["completed"]).isEqualTo(1_000.0)
    }

    @Test
    fun `a JVM that does not measure allocation still gives its collections, and says why the rest is missing`() {
        val r = AllocationProbe.record(reading(0, 0, 0, null), reading(2_000, 100, 4, null))
        assertThat(r.figures["bytesPerRequest"]).isNull()
        assertThat(r.figures["gcMsPerSecond"]).isEqualTo(2.0)
        assertThat(r.notes).containsExactly("the app's stats channel reported no allocation (a JVM before 21 does not measure it)")
    }

    @Test
    fun `no exchange between the readings gives no figure`() {
        assertThat(AllocationProbe.record(reading(0, 10, 0, 0), reading(1_000, 10, 0, 0)).figures).isEmpty()
    }

    @Test
    fun `an app without the stats channel is not measured, and a non-JVM is not asked`(@org.junit.jupiter.api.io.TempDir dir: java.nio.file.Path) {
        val probe = AllocationProbe(stackbench.runner.results.Json.mapper)
        val target = ProbeTarget(1L, true, dir, dir, "k")
        assertThat(probe.applies(target.copy(jvm = false))).isFalse()
        assertThat(probe.unavailable(target)).isEqualTo("the app offers no stats side channel: its allocation and collections are not known")
        assertThat(probe.unavailable(target.copy(statsUrl = java.net.URI.create("http://127.0.0.1:1/stats")))).isNull()
    }
}
