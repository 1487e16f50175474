package stackbench.runner.isolation

import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.util.concurrent.TimeUnit

/** Against the real kernel, where cgroups can be written: a process lands in its group, and the group goes away. */
@Background
@ResourceLock(SharedMachine.LANE_1)
class KernelCgroupsIT {
    @Test
    fun `a process started through a confinement is in its group, limited, and the group is removed after`() {
        val isolation = Isolation.detect()
        Needs.that(isolation is Isolation.WithCgroups, "cgroups are not writable here: ${isolation.limitation}")
        val confinement = isolation.confine("sb${ProcessHandle.current().pid()}-it", CgroupLimits(0.5, emptyList(), 128L shl 20))
        val process = ProcessBuilder(confinement.wrap(listOf("sleep", "30"))).start()
        try {
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
            // until the command runs: the wrapper joins its groups one by one (the cpuset last can come after the pid
            // shows in another), and only then execs it (a CI run read "0" between the two)
            fun running() = runCatching { Files.readString(java.nio.file.Path.of("/proc/${process.pid()}/comm")).trim() == "sleep" }.getOrDefault(false)
            while ((confinement.cgroup!!.pids().isEmpty() || !running()) && System.nanoTime() < deadline) Thread.sleep(10)
            assertThat(confinement.cgroup!!.pids()).contains(process.pid())
            val self = Files.readString(java.nio.file.Path.of("/proc/${process.pid()}/cgroup"))
            assertThat(self).contains("stackbench/sb${ProcessHandle.current().pid()}-it")
            assertThat(confinement.counters()!!.periods).isNotNull()
        } finally {
            confinement.release { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
        }
        assertThat(process.waitFor(5, TimeUnit.SECONDS)).isTrue()
        assertThat(confinement.cgroup!!.dirs.values).allMatch { !Files.exists(it) }
    }

    @Test
    fun `a process started on every CPU is held to its CPU set and quota once they are applied`() {
        val isolation = Isolation.detect()
        Needs.that(isolation is Isolation.WithCgroups, "cgroups are not writable here: ${isolation.limitation}")
        val cpus = Runtime.getRuntime().availableProcessors()
        Needs.that(cpus >= 2, "one CPU: nothing to narrow")
        val limits = CgroupLimits(0.5, listOf(cpus - 1), 128L shl 20)
        val confinement = isolation.confineStartingWide("sb${ProcessHandle.current().pid()}-wide", limits, cpus)
        // started as a runner pinned to its first CPU starts it (host.SelfAffinity): the process must not keep that CPU alone
        val process = ProcessBuilder(listOf("taskset", "-c", "0") + confinement.wrap(listOf("sleep", "30"))).start()
        fun allowed() = Files.readAllLines(java.nio.file.Path.of("/proc/${process.pid()}/status")).single { it.startsWith("Cpus_allowed_list:") }.substringAfter(':').trim()
        try {
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
            // until the command runs: the wrapper joins its groups one by one (the cpuset last can come after the pid
            // shows in another), and only then execs it (a CI run read "0" between the two)
            fun running() = runCatching { Files.readString(java.nio.file.Path.of("/proc/${process.pid()}/comm")).trim() == "sleep" }.getOrDefault(false)
            while ((confinement.cgroup!!.pids().isEmpty() || !running()) && System.nanoTime() < deadline) Thread.sleep(10)
            assertThat(allowed()).isEqualTo("0-${cpus - 1}")
            assertThat(isolation.limitCpus(confinement, process.pid(), limits)).isNull()
            assertThat(allowed()).isEqualTo("${cpus - 1}")
            val quota = confinement.cgroup!!.dirs["cpu"]?.resolve("cpu.cfs_quota_us") ?: confinement.cgroup!!.dirs.getValue("").resolve("cpu.max")
            assertThat(Files.readString(quota).trim()).startsWith("50000")
        } finally {
            confinement.release { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
        }
        assertThat(process.waitFor(5, TimeUnit.SECONDS)).isTrue()
    }
}
