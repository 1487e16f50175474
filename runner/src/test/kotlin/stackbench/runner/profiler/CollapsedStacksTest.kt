package stackbench.runner.profiler

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class CollapsedStacksTest {
    private val text = """
        java/lang/Thread.run_[j];app/Handler.handle_[j];app/Primes.count_[j] 60
        java/lang/Thread.run_[j];app/Handler.handle_[j];app/Primes.count_[i] 20
        java/lang/Thread.run_[j];app/Handler.handle_[j];app/Json.write_[j] 15
        java/lang/Thread.run_[j];app/Gc.work_[0] 5
    """.trimIndent()

    @Test
    fun `self time is where samples ended, one method however the JIT ran it`() {
        val p = CollapsedStacks.parse(text, "p.collapsed")
        assertThat(p.total).isEqualTo(100)
        val top = p.topSelf(2)
        assertThat(top.map { it.frame }).containsExactly("app.Primes.count", "app.Json.write")
        assertThat(top[0].samples).isEqualTo(80)
        assertThat(top[0].share).isCloseTo(0.80, within(1e-9))
    }

    @Test
    fun `total time counts a frame once a stack, so the root holds everything`() {
        val p = CollapsedStacks.parse(text, "p.collapsed")
        val total = p.topTotal(3).associate { it.frame to it.samples }
        assertThat(total).containsEntry("java.lang.Thread.run", 100L).containsEntry("app.Handler.handle", 95L).containsEntry("app.Primes.count", 80L)
    }

    @Test
    fun `a recursive frame is counted once in its stack's total`() {
        val p = CollapsedStacks.parse("a;b;a;b 10\na 5", "r")
        assertThat(p.topTotal(5).associate { it.frame to it.samples }).containsEntry("a", 15L).containsEntry("b", 10L)
    }

    @Test
    fun `a line that is not a collapsed stack is an error naming the file and line`() {
        assertThatThrownBy { CollapsedStacks.parse("a;b 3\nnot a stack\n", "cells/001/profile.collapsed") }
            .hasMessageStartingWith("cells/001/profile.collapsed:2: not a collapsed stack")
        assertThat(CollapsedStacks.parse("", "empty").topSelf(5)).isEmpty()
    }
}
