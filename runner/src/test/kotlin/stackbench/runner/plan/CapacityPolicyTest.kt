package stackbench.runner.plan

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.CapacityPolicy.Step

class CapacityPolicyTest {
    private val policy = CapacityPolicy(start = 100.0, max = 10_000.0, precision = 0.05)

    /** Runs the search against a system whose true capacity is [capacity]. */
    private fun search(capacity: Double): List<Step> {
        val steps = mutableListOf<Step>()
        while (true) {
            val rate = policy.next(steps) ?: return steps
            steps += Step(rate, rate <= capacity)
        }
    }

    @Test
    fun `steps up by doubling, then bisects to within the precision`() {
        val steps = search(1_234.0)
        assertThat(steps.take(5).map { it.rate }).containsExactly(100.0, 200.0, 400.0, 800.0, 1600.0)
        val (held, broke) = policy.outcome(steps)
        assertThat(held!!).isLessThanOrEqualTo(1_234.0)
        assertThat(broke!!).isGreaterThan(1_234.0)
        assertThat((broke - held) / held).isLessThanOrEqualTo(0.05)
        assertThat(steps).hasSizeLessThan(12)
    }

    @Test
    fun `a system that holds the max rate ends the search there`() {
        val steps = search(1e9)
        assertThat(steps.last().rate).isEqualTo(10_000.0)
        assertThat(policy.outcome(steps)).isEqualTo(10_000.0 to null)
    }

    @Test
    fun `a system that breaks at the start rate has no capacity at this target`() {
        val steps = search(50.0)
        assertThat(steps).containsExactly(Step(100.0, false))
        assertThat(policy.outcome(steps)).isEqualTo(null to 100.0)
    }
}
