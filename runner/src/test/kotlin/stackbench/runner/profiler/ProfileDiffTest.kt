package stackbench.runner.profiler

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class ProfileDiffTest {
    // a: 0.2 ms of CPU per request, half of it in work; b: 0.1 ms per request, all the same work plus a little HTTP
    private val a = CollapsedStacks.parse("run;http 50\nrun;work 50", "a")
    private val b = CollapsedStacks.parse("run;http 40\nrun;work 60", "b")

    @Test
    fun `frames compare their CPU per request, not their shares`() {
        val d = ProfileDiff(a, 0.2, b, 0.1)
        assertThat(d.perRequest).isTrue()
        val frames = d.frames(5).associateBy { it.frame }
        // a: 0.1 ms of http and 0.1 of work a request; b: 0.04 and 0.06
        assertThat(frames.getValue("http").a).isCloseTo(0.10, within(1e-9))
        assertThat(frames.getValue("http").b).isCloseTo(0.04, within(1e-9))
        assertThat(frames.getValue("work").change).isCloseTo(0.04, within(1e-9))
        assertThat(d.frames(5).first().frame).isEqualTo("http") // the larger change first
    }

    @Test
    fun `grown and shrunk stacks are nanoseconds per request, each on its side`() {
        val (grew, shrank) = ProfileDiff(a, 0.2, b, 0.1).grewAndShrank()
        assertThat(grew).containsEntry("run;http", 60_000L).containsEntry("run;work", 40_000L)
        assertThat(shrank).isEmpty()
        val (grew2, shrank2) = ProfileDiff(b, 0.1, a, 0.2).grewAndShrank()
        assertThat(grew2).isEmpty()
        assertThat(shrank2).containsEntry("run;http", 60_000L)
    }

    @Test
    fun `without a cost per request on both sides the shares are compared, and it says so`() {
        val d = ProfileDiff(a, null, b, 0.1)
        assertThat(d.perRequest).isFalse()
        val (grew, shrank) = d.grewAndShrank()
        assertThat(grew).containsOnly(org.assertj.core.api.Assertions.entry("run;http", 100_000L))
        assertThat(shrank).containsOnly(org.assertj.core.api.Assertions.entry("run;work", 100_000L))
        assertThat(ProfileDiff.collapsed(grew)).isEqualTo("run;http 100000\n")
    }
}
