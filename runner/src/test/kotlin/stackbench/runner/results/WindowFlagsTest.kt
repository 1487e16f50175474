package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class WindowFlagsTest {
    private fun reading(medianNs: Double) = PaceReading(medianNs, medianNs * 0.99, medianNs * 1.05, 300)

    @Test
    fun `a reading's median and tails come from its readings`() {
        val r = PaceReading.of((1L..10L).map { it * 100 })!!
        assertThat(r.medianNs).isEqualTo(500.0)
        assertThat(r.p10Ns).isEqualTo(100.0)
        assertThat(r.p90Ns).isEqualTo(900.0)
        assertThat(r.readings).isEqualTo(10)
        assertThat(PaceReading.of(emptyList())).isNull()
    }

    @Test
    fun `each window is placed against the calmest pace so far, itself included, its median and its floor apart`() {
        val pace = HostPace()
        assertThat(pace.place(reading(330_000.0))!!.relative).isEqualTo(1.0)
        assertThat(pace.place(reading(363_000.0))!!.relative).isCloseTo(1.10, within(1e-9))
        // a calmer window becomes the reference for the ones after it, not before
        assertThat(pace.place(reading(300_000.0))!!.relative).isEqualTo(1.0)
        assertThat(pace.place(reading(330_000.0))!!.relative).isCloseTo(1.10, within(1e-9))
        assertThat(pace.place(null)).isNull()
        // the floor against the calmest floor, whatever the medians did: pieces cut into by wake-ups move the median only
        val floors = HostPace()
        floors.place(PaceReading(330_000.0, 325_000.0, 360_000.0, 300))
        val cutInto = floors.place(PaceReading(365_000.0, 326_000.0, 420_000.0, 300))!!
        assertThat(cutInto.relative).isCloseTo(365.0 / 330, within(1e-9))
        assertThat(cutInto.floorRelative).isCloseTo(326.0 / 325, within(1e-9))
        val slower = floors.place(PaceReading(370_000.0, 361_000.0, 400_000.0, 300))!!
        assertThat(slower.floorRelative).isCloseTo(361.0 / 325, within(1e-9))
    }

    @Test
    fun `a window whose fastest tenth is more than 10 % slower than the calmest is flagged host-slow, and that disqualifies it`() {
        val slow = reading(371_000.0).copy(relative = 1.14, floorRelative = 1.12)
        val flag = Flags.of(null, null, false, "cgroup-v1", pace = slow).single()
        assertThat(flag.code).isEqualTo("host-slow")
        assertThat(flag.message).contains("fastest tenth").contains("12 % more CPU time").contains("its median 14 % more")
        assertThat(Flags.of(null, null, false, "cgroup-v1", pace = slow.copy(floorRelative = 1.08))).isEmpty()
        assertThat(Flags.of(null, null, false, "cgroup-v1", pace = slow.copy(floorRelative = null))).isEmpty()
        assertThat(Flags.DISQUALIFYING).contains("host-slow")
    }

    @Test
    fun `a median slowed by the lab's own processes on the canary's CPU, its floor calm, is not a slow host`() {
        // the database suite's 1 ms window of 2026-11-28: median 1.107 of the calmest, floor 1.00, steal 0.2 %
        val ownLoad = reading(360_634.0).copy(relative = 1.107, floorRelative = 1.0003, appCpuSteal = 0.0, driverCpuSteal = 0.0021)
        assertThat(Flags.of(null, null, false, "cgroup-v1", pace = ownLoad)).isEmpty()
    }

    @Test
    fun `a window in which the hypervisor took more than 5 % of a CPU's time is flagged host-slow, naming whose`() {
        val calm = reading(330_000.0).copy(relative = 1.0, floorRelative = 1.0)
        val flag = Flags.of(null, null, false, "cgroup-v1", pace = calm.copy(appCpuSteal = 0.072, driverCpuSteal = 0.01)).single()
        assertThat(flag.code).isEqualTo("host-slow")
        assertThat(flag.message).contains("7.2 % of the app's CPU time").doesNotContain("load generator")
        assertThat(Flags.of(null, null, false, "cgroup-v1", pace = calm.copy(appCpuSteal = 0.05, driverCpuSteal = 0.002))).isEmpty()
        // both: one flag, both named
        assertThat(Flags.of(null, null, false, "cgroup-v1", pace = calm.copy(appCpuSteal = 0.06, driverCpuSteal = 0.09)).single().message)
            .contains("6.0 % of the app's CPU time and 9.0 % of the load generator's CPU time")
    }

    @Test
    fun `a window whose JIT compiler threads took more than 2 % of the allotted CPU is flagged compiling, and that disqualifies it`() {
        val flag = Flags.of(null, null, false, "cgroup-v1", jvm = JvmWindow(compilationMs = 4296, compilerCpuMs = 900.0), windowMs = 30_000).single()
        assertThat(flag.code).isEqualTo("compiling")
        assertThat(flag.message).contains("900 ms of CPU in the 30.0 s window (3.0 % of the CPU allotted)")
        // CompilationMXBean's time counts the compilers' waits for the CPU: it does not decide
        assertThat(Flags.of(null, null, false, "cgroup-v1", jvm = JvmWindow(compilationMs = 4296, compilerCpuMs = 300.0), windowMs = 30_000)).isEmpty()
        // two CPUs allotted: 900 ms is 1.5 % of them
        assertThat(Flags.of(null, null, false, "cgroup-v1", jvm = JvmWindow(compilerCpuMs = 900.0), windowMs = 30_000, allottedCpus = 2.0)).isEmpty()
        assertThat(Flags.of(null, null, false, "cgroup-v1", jvm = JvmWindow(compilerCpuMs = null), windowMs = 30_000)).isEmpty()
        // an app waiting on I/O, at 20 % of its CPU: the compiler ran on CPU no request wanted
        assertThat(Flags.of(null, ResourceSummary(cpuShare = 0.2), false, "cgroup-v1", jvm = JvmWindow(compilerCpuMs = 900.0), windowMs = 30_000)).isEmpty()
        assertThat(Flags.of(null, ResourceSummary(cpuShare = 0.9), false, "cgroup-v1", jvm = JvmWindow(compilerCpuMs = 900.0), windowMs = 30_000).map { it.code })
            .containsExactly("compiling")
        assertThat(Flags.DISQUALIFYING).contains("compiling")
    }
}
