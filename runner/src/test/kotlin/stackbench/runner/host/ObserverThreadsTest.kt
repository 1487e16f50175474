package stackbench.runner.host

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.isolation.CgroupLayout
import stackbench.runner.isolation.CgroupVersion
import stackbench.runner.isolation.Cgroups
import stackbench.runner.isolation.FakeCgroupFs
import stackbench.runner.isolation.Isolation
import java.nio.file.Path

class ObserverThreadsTest {
    /** A Tomcat app's threads as /proc names them: names cut to 15 characters. */
    private val tomcat = mapOf(
        4001 to "java", 4013 to "C2 CompilerThre", 4020 to "HTTP-Dispatcher", 4021 to "stackbench-stat",
        4030 to "http-nio-8080-e", 4031 to "http-nio-8080-P",
    )
    private val v1 = CgroupLayout(CgroupVersion.V1, CgroupLayout.V1_CONTROLLERS.associateWith { Path.of("/cg/$it") })

    @Test
    fun `the stats channel's threads are found by their names as proc cuts them`() {
        assertThat(ObserverThreads.of(tomcat)).containsExactly(4020, 4021)
        assertThat(ObserverThreads.of(mapOf(1 to "java"))).isEmpty()
    }

    @Test
    fun `released from the app's groups and pinned one by one to the driver's CPUs`() {
        val fs = FakeCgroupFs()
        val pinned = mutableListOf<List<String>>()
        val note = ObserverThreads.release(tomcat, Isolation.WithCgroups(Cgroups(v1, fs)), listOf(0)) { pinned += it; null }
        assertThat(note).isEqualTo("out of the app's limits, on CPU 0 (threads 4020, 4021)")
        assertThat(fs.written.map { it.second }.distinct()).containsExactly("4020", "4021")
        assertThat(pinned).containsExactly(listOf("taskset", "-p", "-c", "0", "4020"), listOf("taskset", "-p", "-c", "0", "4021"))
    }

    @Test
    fun `on a machine the app shares they stay on every CPU`() {
        val pinned = mutableListOf<List<String>>()
        val note = ObserverThreads.release(tomcat, Isolation.WithCgroups(Cgroups(v1, FakeCgroupFs())), emptyList()) { pinned += it; null }
        assertThat(note).isEqualTo("out of the app's limits, on every CPU (threads 4020, 4021)")
        assertThat(pinned).isEmpty()
    }

    @Test
    fun `what keeps them in the app's limits is said, not thrown`() {
        val none: (List<String>) -> String? = { error("not pinned") }
        assertThat(ObserverThreads.release(mapOf(4020 to "HTTP-Dispatcher"), Isolation.TasksetOnly("test"), listOf(0), none))
            .isEqualTo("in the app's limits: found 1 of its 2 threads (HTTP-Dispatcher, stackbench-stats)")
        val v2 = CgroupLayout(CgroupVersion.V2, mapOf("" to Path.of("/cg")))
        assertThat(ObserverThreads.release(tomcat, Isolation.WithCgroups(Cgroups(v2, FakeCgroupFs())), listOf(0), none))
            .isEqualTo("in the app's limits: cgroup-v2 keeps every thread of a process in its group")
        val refusing = FakeCgroupFs().apply { refused[Path.of("/cg/cpu/tasks")] = "No such process" }
        assertThat(ObserverThreads.release(tomcat, Isolation.WithCgroups(Cgroups(v1, refusing)), listOf(0), none))
            .isEqualTo("in the app's limits: cgroup-v1 refused to move threads [4020, 4021] (No such process)")
        assertThat(ObserverThreads.release(tomcat, Isolation.TasksetOnly("test"), listOf(0)) { "taskset: failed to set pid 4020's affinity" })
            .isEqualTo("out of the app's taskset limits, but not pinned to CPU 0: taskset: failed to set pid 4020's affinity")
    }

    @Test
    fun `this process's own threads are read from proc`() {
        val threads = ObserverThreads.threadsOf(ProcessHandle.current().pid())
        assertThat(threads).isNotEmpty()
        assertThat(threads.keys).contains(ProcessHandle.current().pid().toInt())
        assertThat(ObserverThreads.threadsOf(Long.MAX_VALUE)).isEmpty()
    }
}
