package stackbench.runner.isolation

import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import org.junit.jupiter.api.parallel.ResourceAccessMode
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.util.concurrent.TimeUnit

/** Against the real kernel, where cgroups can be written: a process lands in its group, and the group goes away. */
@ResourceLock(SharedMachine.CPUS, mode = ResourceAccessMode.READ)
class KernelCgroupsIT {
    @Test
    fun `a process started through a confinement is in its group, limited, and the group is removed after`() {
        val isolation = Isolation.detect()
        Needs.that(isolation is Isolation.WithCgroups, "cgroups are not writable here: ${isolation.limitation}")
        val confinement = isolation.confine("sb${ProcessHandle.current().pid()}-it", CgroupLimits(0.5, emptyList(), 128L shl 20))
        val process = ProcessBuilder(confinement.wrap(listOf("sleep", "30"))).start()
        try {
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
            while (confinement.cgroup!!.pids().isEmpty() && System.nanoTime() < deadline) Thread.sleep(10)
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
}
