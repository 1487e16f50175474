package stackbench.runner.isolation

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

class TasksetTest {
    @Test
    fun `a command is prefixed with its CPUs, sorted and once each, and left alone without any`() {
        assertThat(Taskset.pinned(listOf("wrk", "-c4"), listOf(3, 1, 3))).containsExactly("taskset", "-c", "1,3", "wrk", "-c4")
        assertThat(Taskset.pinned(listOf("wrk"), emptyList())).containsExactly("wrk")
    }

    @Test
    fun `a running process is re-pinned thread by thread`() {
        assertThat(Taskset.everyThreadOf(4242, listOf(2, 0))).containsExactly("taskset", "-a", "-p", "-c", "0,2", "4242")
        assertThatThrownBy { Taskset.everyThreadOf(4242, emptyList()) }.hasMessage("CPU ids to pin to: []")
    }
}
