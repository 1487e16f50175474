package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class SequentialLooksTest {
    @Test
    fun `one look spends all of alpha`() {
        assertThat(SequentialLooks(1).confidenceAt(1)).isCloseTo(0.95, within(1e-12))
    }

    @Test
    fun `four looks spend by the O'Brien-Fleming-type function`() {
        // z(0.025) = 1.959964; α(t) = 2 - 2Φ(1.959964 / √t)
        // t = 1/4: 2 - 2Φ(3.919928) = 0.0000886; t = 1/2: 2 - 2Φ(2.771808) = 0.005575
        // t = 3/4: 2 - 2Φ(2.263171) = 0.023625;  t = 1:   2 - 2Φ(1.959964) = 0.05
        val looks = SequentialLooks(4)
        assertThat(looks.spent(0.25)).isCloseTo(0.0000886, within(1e-7))
        assertThat(looks.spent(0.5)).isCloseTo(0.005575, within(1e-6))
        assertThat(looks.spent(0.75)).isCloseTo(0.023625, within(1e-6))
        assertThat(looks.spent(1.0)).isCloseTo(0.05, within(1e-12))
        // increments: 0.0000886, 0.005486, 0.018051, 0.026375; they add up to α
        assertThat(looks.alphaAt(1)).isCloseTo(0.0000886, within(1e-7))
        assertThat(looks.alphaAt(2)).isCloseTo(0.005486, within(1e-6))
        assertThat(looks.alphaAt(3)).isCloseTo(0.018051, within(1e-6))
        assertThat(looks.alphaAt(4)).isCloseTo(0.026375, within(1e-6))
        assertThat((1..4).sumOf { looks.alphaAt(it) }).isCloseTo(0.05, within(1e-12))
        assertThat(looks.confidenceAt(4)).isCloseTo(0.973625, within(1e-6))
    }

    @Test
    fun `more looks make the last one stricter`() {
        assertThat(SequentialLooks(2).confidenceAt(2)).isLessThan(SequentialLooks(4).confidenceAt(4))
        assertThat(SequentialLooks(2).confidenceAt(2)).isGreaterThan(0.95)
    }

    @Test
    fun `a look outside the plan is refused`() {
        assertThatThrownBy { SequentialLooks(4).alphaAt(5) }.isInstanceOf(IllegalArgumentException::class.java)
        assertThatThrownBy { SequentialLooks(0) }.isInstanceOf(IllegalArgumentException::class.java)
    }
}
