package stackbench.runner.probe

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import stackbench.runner.isolation.CgroupCounters
import stackbench.runner.results.GcPause
import stackbench.runner.results.Sample

class ProbeTest {

    @Test
    fun `context switches add up over threads, including threads that come and go`() {
        val s = ThreadSwitches()
        s.update(mapOf(1 to (100L to 10L), 2 to (50L to 5L))) // baseline: counts so far are not the window's
        assertThat(s.voluntary).isZero()
        s.update(mapOf(1 to (110L to 12L), 2 to (55L to 5L), 3 to (7L to 1L))) // 3 is new: all of its count is new
        assertThat(s.voluntary).isEqualTo(10 + 5 + 7L)
        assertThat(s.involuntary).isEqualTo(2 + 0 + 1L)
        s.update(mapOf(1 to (111L to 12L))) // 2 and 3 exited: what they did before the last reading stays counted
        assertThat(s.voluntary).isEqualTo(23L)
        s.update(mapOf(1 to (112L to 13L), 2 to (3L to 0L))) // a reused thread id starts again from its new count
        assertThat(s.voluntary).isEqualTo(23L + 1 + 3)
    }

    @Test
    fun `gc pauses are read from real serial and G1 logs`() {
        val serial = GcLog.parse(javaClass.getResource("/probe/gc-serial.log")!!.readText().lines())
        assertThat(serial.first()).isEqualTo(GcPause(java.time.Instant.parse("2026-11-22T06:01:16.977Z").toEpochMilli(), 8.792, "Pause Young (Allocation Failure)"))
        assertThat(serial).hasSize(11)
        val g1 = GcLog.parse(javaClass.getResource("/probe/gc-g1.log")!!.readText().lines())
        assertThat(g1.map { it.kind }).containsOnly("Pause Young (Normal) (G1 Evacuation Pause)")
        assertThat(g1.map { it.ms }).startsWith(10.894, 14.160)
    }

    private fun sample(t: Long, cpu: Double? = null, vol: Long? = null, server: Long? = null, driver: Double? = null, rss: Long? = null) =
        Sample(t, 1_000_000L + t, null, rss, 10, vol, vol?.div(10), cpu, null, null, server, server?.let { 1_000_000L + t }, driver)

    @Test
    fun `figures come from the measured window only, counters differenced first to last`() {
        val samples = listOf(
            sample(-500, cpu = 0.0, vol = 0, rss = 999_999_999), // before the window: ignored
            sample(0, cpu = 100.0, vol = 1000, driver = 0.0, rss = 100),
            sample(1000, cpu = 600.0, vol = 3000, driver = 300.0, rss = 300),
            sample(2000, cpu = 1100.0, vol = 5000, driver = 600.0, rss = 200),
            sample(2600, cpu = 9999.0, vol = 99999, rss = 5), // after the window: ignored
        )
        val r = ResourceSummaries.of(samples, 2000, allottedCpus = 1.0, driverCpus = 1.0,
            CgroupCounters(null, 10, 2, 1_000_000, null, 0), CgroupCounters(null, 30, 12, 51_000_000, 400, 0),
            listOf(GcPause(1_000_500, 5.0, "Pause Young"), GcPause(1_003_000, 50.0, "Pause Full")), windowStartEpochMs = 1_000_000)
        assertThat(r.cpuShare).isCloseTo(0.5, within(1e-9)) // 1000 ms of CPU in 2000 ms on 1 CPU
        assertThat(r.cpuShareMax).isCloseTo(0.5, within(1e-9))
        assertThat(r.voluntaryCtx).isEqualTo(4000)
        assertThat(r.voluntaryCtxPerSecond).isCloseTo(2000.0, within(1e-9))
        assertThat(r.driverCpuShare).isCloseTo(0.3, within(1e-9))
        assertThat(r.rssMaxBytes).isEqualTo(300)
        assertThat(r.throttledPeriods).isEqualTo(10)
        assertThat(r.periods).isEqualTo(20)
        assertThat(r.throttledMs).isCloseTo(50.0, within(1e-9))
        assertThat(r.gcPauses).isEqualTo(1) // the second pause is after the window
        assertThat(r.sampleCount).isEqualTo(3)
    }

    @Test
    fun `a driver that ended with the window still has its CPU share, from the readings it left`() {
        // wrk -d30s exits as the window closes: the window's last sample finds no driver to read
        val samples = listOf(
            sample(0, cpu = 0.0, driver = 0.0),
            sample(1000, cpu = 500.0, driver = 400.0),
            sample(1900, cpu = 950.0, driver = 760.0),
            sample(2000, cpu = 1000.0),
        )
        val r = ResourceSummaries.of(samples, 2000, 1.0, driverCpus = 1.0, null, null, emptyList(), 0)
        assertThat(r.driverCpuShare).isCloseTo(0.4, within(1e-9))
        // readings over less than half the window say too little: none
        val early = listOf(sample(0, driver = 0.0), sample(900, driver = 400.0), sample(2000, cpu = 1.0))
        assertThat(ResourceSummaries.of(early, 2000, 1.0, driverCpus = 1.0, null, null, emptyList(), 0).driverCpuShare).isNull()
    }

    @Test
    fun `rates use each interval's measured length, not an assumed one`() {
        // intervals of 250 and 750 ms: the busy one is short
        val samples = listOf(sample(0, cpu = 0.0), sample(250, cpu = 250.0), sample(1000, cpu = 250.0))
        val r = ResourceSummaries.of(samples, 1000, 1.0, null, null, null, emptyList(), 0)
        assertThat(r.cpuShare).isCloseTo(0.25, within(1e-9))
        assertThat(r.cpuShareMax).isCloseTo(1.0, within(1e-9))
    }

    @Test
    fun `server completions per second are interpolated at the second's edges from the app's own stamps`() {
        val samples = listOf(sample(-250, server = 0), sample(500, server = 750), sample(1500, server = 1750), sample(2250, server = 2500))
        assertThat(ResourceSummaries.serverPerSecond(samples, 1_000_000, 2000)).containsExactly(1000.0, 1000.0)
    }

    @Test
    fun `seconds inside a gap of the app's readings longer than 2 s have no figure, those around it keep theirs`() {
        // readings every 250 ms at 50 req/s, none from 2.0 s to 7.0 s (a starved stats channel), then again
        val times = (0L..2000L step 250) + (7000L..10_000L step 250)
        val samples = times.map { sample(it, server = it / 20) }
        val series = ResourceSummaries.serverPerSecond(samples, 1_000_000, 10_000)
        assertThat(series).hasSize(10)
        assertThat(series.subList(0, 2)).containsOnly(50.0)
        // seconds 2..6 have an edge inside the gap: not observed
        assertThat(series.subList(2, 7)).containsOnlyNulls()
        assertThat(series.subList(7, 10)).containsOnly(50.0)
        // a gap of exactly 2 s is still read across
        val twoSeconds = ((0L..2000L step 250) + (4000L..6000L step 250)).map { sample(it, server = it / 20) }
        assertThat(ResourceSummaries.serverPerSecond(twoSeconds, 1_000_000, 6_000)).containsOnly(50.0)
    }

    @Test
    fun `a recorded series is computed again from its samples, or kept when they hold no reading of the app`() {
        val times = (0L..2000L step 250) + (7000L..10_000L step 250)
        val samples = times.map { sample(it, server = it / 20) }
        // as a runner before the gap rule recorded it: ten seconds, the gap's filled in with its mean
        val stored = List<Double?>(10) { 50.0 }
        val again = ResourceSummaries.serverPerSecondAgain(samples, stored)
        assertThat(again).isEqualTo(ResourceSummaries.serverPerSecond(samples, 1_000_000, 10_000))
        assertThat(again.count { it == null }).isEqualTo(5)
        assertThat(ResourceSummaries.serverPerSecondAgain(times.map { sample(it) }, stored)).isSameAs(stored)
        assertThat(ResourceSummaries.serverPerSecondAgain(emptyList(), stored)).isSameAs(stored)
    }

    @Test
    fun `a second without readings on both sides has no figure rather than a guess`() {
        val samples = listOf(sample(500, server = 0), sample(1500, server = 1000))
        assertThat(ResourceSummaries.serverPerSecond(samples, 1_000_000, 2000)).containsExactly(null, null)
    }
}
