package stackbench.runner.load

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

class ExecutionSegmentsTest {
    @Test
    fun `two instances split the load in halves`() {
        val s = ExecutionSegments(2)
        assertThat(s.sequence).isEqualTo("0,1/2,1")
        assertThat(s.flags(0)).containsExactly("--execution-segment", "0:1/2", "--execution-segment-sequence", "0,1/2,1")
        assertThat(s.flags(1)).containsExactly("--execution-segment", "1/2:1", "--execution-segment-sequence", "0,1/2,1")
    }

    @Test
    fun `fractions are written in lowest terms`() {
        val s = ExecutionSegments(4)
        assertThat(s.sequence).isEqualTo("0,1/4,1/2,3/4,1")
        assertThat((0 until 4).map(s::segment)).containsExactly("0:1/4", "1/4:1/2", "1/2:3/4", "3/4:1")
    }

    @Test
    fun `one instance runs the whole load without flags`() {
        assertThat(ExecutionSegments(1).flags(0)).isEmpty()
        assertThat(ExecutionSegments(1).segment(0)).isEqualTo("0:1")
    }

    @Test
    fun `an instance outside the split or no instance at all is refused`() {
        assertThatThrownBy { ExecutionSegments(3).segment(3) }.hasMessage("instance 3 is not one of 0..2")
        assertThatThrownBy { ExecutionSegments(0) }.hasMessage("a split needs at least one instance, not 0")
    }
}
