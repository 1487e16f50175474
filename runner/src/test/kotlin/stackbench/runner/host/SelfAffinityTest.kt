package stackbench.runner.host

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class SelfAffinityTest {
    private val applied = mutableListOf<List<Int>>()
    private val affinity = SelfAffinity(4) { cpus -> applied += cpus; null }

    @Test
    fun `a pinned cell keeps the runner on the driver's CPUs, a shared one gives it every CPU`() {
        assertThat(affinity.placeFor(Placement(appCpus = listOf(1), driverCpus = listOf(3, 0, 2), downstreamCpus = listOf(0, 2, 3)))).isTrue()
        assertThat(affinity.placeFor(Placement(emptyList(), emptyList(), emptyList()))).isTrue()
        assertThat(applied).containsExactly(listOf(0, 2, 3), listOf(0, 1, 2, 3))
    }

    @Test
    fun `the same placement twice sets the affinity once`() {
        val pinned = Placement(listOf(1), listOf(0), listOf(0))
        affinity.placeFor(pinned)
        assertThat(affinity.placeFor(pinned)).isFalse()
        assertThat(applied).hasSize(1)
    }

    @Test
    fun `a failure is kept and the runner goes on unpinned without trying again`() {
        var calls = 0
        val failing = SelfAffinity(2) { calls++; "taskset could not run (No such file or directory)" }
        assertThat(failing.placeFor(Placement(listOf(1), listOf(0), listOf(0)))).isFalse()
        assertThat(failing.placeFor(Placement(emptyList(), emptyList(), emptyList()))).isFalse()
        assertThat(failing.problem).isEqualTo("taskset could not run (No such file or directory)")
        assertThat(calls).isEqualTo(1)
    }

    @Test
    fun `taskset sets the affinity of every thread of a real process`() {
        val child = ProcessBuilder("sleep", "5").start()
        try {
            assertThat(SelfAffinity.taskset(child.pid())(listOf(0))).isNull()
            val shown = ProcessBuilder("taskset", "-p", child.pid().toString()).start().inputStream.bufferedReader().readText()
            assertThat(shown.trim()).endsWith(": 1")
        } finally {
            child.destroyForcibly()
        }
    }
}
