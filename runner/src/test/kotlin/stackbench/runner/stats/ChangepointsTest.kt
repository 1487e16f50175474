package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import java.util.Random
import kotlin.math.ln

class ChangepointsTest {
    @ParameterizedTest(name = "seed {0}, {1} points, {2} noise")
    @CsvSource(
        "1, 60, 0.02", "2, 60, 0.02", "3, 60, 0.05", "4, 120, 0.02", "5, 120, 0.05",
        "6, 30, 0.02", "7, 30, 0.10", "8, 300, 0.03", "9, 45, 0.05", "10, 600, 0.02",
    )
    fun `a flat noisy series has no changepoints`(seed: Long, n: Int, noise: Double) {
        val xs = Series(seed, noise).hold(2000.0, n).build()
        assertThat(Changepoints.find(xs)).isEmpty()
        assertThat(Changepoints.segments(xs)).hasSize(1)
    }

    @ParameterizedTest(name = "{0} points: at most {1} of 1,000")
    @CsvSource("20, 70", "30, 35", "60, 8", "120, 3")
    fun `false changes in pure noise are rare`(n: Int, most: Int) {
        val rng = Random(n.toLong())
        val falseChanges = (1..1000).count { Changepoints.find(List(n) { 1000 + 20 * rng.nextGaussian() }).isNotEmpty() }
        assertThat(falseChanges).isLessThanOrEqualTo(most)
    }

    @Test
    fun `a step of three sigma in thirty points is found in its place nineteen times in twenty`() {
        val rng = Random(3)
        val found = (1..1000).count {
            val cuts = Changepoints.find(List(30) { i -> (if (i < 10) 0.0 else 3.0) + rng.nextGaussian() })
            cuts.size == 1 && cuts[0] in 9..11
        }
        assertThat(found).isGreaterThanOrEqualTo(930)
    }

    @ParameterizedTest(name = "seed {0}, {1} points, step {2}x, {3} noise")
    @CsvSource(
        "1, 60, 1.5, 0.02", "2, 60, 1.5, 0.02", "3, 60, 0.7, 0.02", "4, 90, 1.2, 0.02",
        "5, 90, 0.8, 0.03", "6, 30, 2.0, 0.05", "7, 120, 1.1, 0.01", "8, 12, 1.8, 0.02",
    )
    fun `a step at a third is found within one point`(seed: Long, n: Int, factor: Double, noise: Double) {
        val at = n / 3
        val xs = Series(seed, noise).hold(1500.0, at).hold(1500.0 * factor, n - at).build()
        val found = Changepoints.find(xs)
        assertThat(found).hasSize(1)
        assertThat(found[0]).isBetween(at - 1, at + 1)
    }

    @Test
    fun `a clean step without noise is exactly one changepoint`() {
        val xs = List(10) { 100.0 } + List(20) { 250.0 }
        assertThat(Changepoints.find(xs)).containsExactly(10)
        assertThat(Changepoints.segments(xs)).containsExactly(
            Changepoints.Segment(0, 10, 100.0),
            Changepoints.Segment(10, 30, 250.0),
        )
    }

    @Test
    fun `a clean step in values that do not add up exactly is still one changepoint`() {
        val xs = List(7) { 0.1 } + List(9) { 0.3 }
        assertThat(Changepoints.noise(xs)).isEqualTo(0.0)
        assertThat(Changepoints.find(xs)).containsExactly(7)
    }

    @Test
    fun `coarse counts have noise and no changepoints`() {
        val xs = listOf(100.0, 100.0, 99.0, 100.0, 101.0, 100.0, 100.0, 100.0, 99.0, 100.0, 100.0, 101.0, 100.0, 100.0, 100.0, 100.0)
        assertThat(Changepoints.noise(xs)).isGreaterThan(0.3)
        assertThat(Changepoints.find(xs)).isEmpty()
    }

    @Test
    fun `a constant series has no changepoints and no noise`() {
        val xs = List(40) { 1234.0 }
        assertThat(Changepoints.find(xs)).isEmpty()
        assertThat(Changepoints.find(xs, penalty = 0.0)).isEmpty()
        assertThat(Changepoints.noise(xs)).isEqualTo(0.0)
        assertThat(Changepoints.segments(xs)).containsExactly(Changepoints.Segment(0, 40, 1234.0))
    }

    @Test
    fun `fewer than two minimum segments of points have no changepoints`() {
        assertThat(Changepoints.find(listOf(1.0, 100.0, 1.0))).isEmpty()
        assertThat(Changepoints.find(listOf(1.0, 1.0, 100.0, 100.0))).containsExactly(2)
        assertThat(Changepoints.find(List(5) { 1.0 } + List(4) { 100.0 }, minSegment = 5)).isEmpty()
        assertThat(Changepoints.find(emptyList())).isEmpty()
        assertThat(Changepoints.segments(emptyList())).isEmpty()
        assertThat(Changepoints.segments(listOf(7.0))).containsExactly(Changepoints.Segment(0, 1, 7.0))
    }

    @Test
    fun `no segment is shorter than the minimum`() {
        // a one-point spike, cheap to cut out: only segments of one point can hold it alone
        val xs = List(10) { 100.0 } + 500.0 + List(10) { 100.0 }
        assertThat(Changepoints.find(xs, minSegment = 1, penalty = 1.0)).containsExactly(10, 11)
        for (minSegment in 2..5) {
            val cuts = Changepoints.segments(xs, minSegment, penalty = 1.0)
            assertThat(cuts.size).isGreaterThan(1)
            for (cut in cuts) assertThat(cut.length).isGreaterThanOrEqualTo(minSegment)
        }
    }

    @Test
    fun `a higher penalty finds fewer changepoints`() {
        val xs = Series(3, 0.02).hold(1000.0, 20).hold(1100.0, 20).hold(1300.0, 20).build()
        assertThat(Changepoints.find(xs)).hasSize(2)
        assertThat(Changepoints.find(xs, penalty = 1e12)).isEmpty()
    }

    @Test
    fun `the noise estimate is not inflated by a jump`() {
        val flat = Series(11, 0.02).hold(2000.0, 60).build()
        val stepped = flat.mapIndexed { i, x -> if (i >= 30) x + 2000 else x }
        assertThat(Changepoints.noise(flat)).isCloseTo(40.0, within(8.0))
        assertThat(Changepoints.noise(stepped)).isCloseTo(Changepoints.noise(flat), within(2.0))
        assertThat(Changepoints.defaultPenalty(flat))
            .isCloseTo(5 * Changepoints.noise(flat) * Changepoints.noise(flat) * ln(60.0), within(1e-6))
    }

    @ParameterizedTest(name = "seed {0}, minSegment {1}")
    @CsvSource("1, 1", "2, 2", "3, 3", "4, 2", "5, 5", "6, 1", "7, 2", "8, 4")
    fun `the pruning keeps the exact optimum`(seed: Long, minSegment: Int) {
        val rng = Random(seed)
        // a few levels of random lengths, noisy enough that the penalty matters
        val xs = ArrayList<Double>()
        while (xs.size < 80) {
            val level = 1000 + 500 * rng.nextDouble()
            repeat(1 + rng.nextInt(15)) { xs.add(level + 60 * rng.nextGaussian()) }
        }
        for (penalty in listOf(1e3, 2e4, 2e5, Changepoints.defaultPenalty(xs))) {
            val pelt = Changepoints.find(xs, minSegment, penalty)
            assertThat(total(xs, pelt, penalty))
                .describedAs("penalty $penalty")
                .isCloseTo(optimum(xs, minSegment, penalty), within(1e-6))
        }
    }

    @Test
    fun `what is not a series or a penalty is refused`() {
        assertThatThrownBy { Changepoints.find(listOf(1.0, Double.NaN, 1.0, 1.0)) }.isInstanceOf(IllegalArgumentException::class.java)
        assertThatThrownBy { Changepoints.find(listOf(1.0, 2.0), penalty = -1.0) }.isInstanceOf(IllegalArgumentException::class.java)
        assertThatThrownBy { Changepoints.find(listOf(1.0, 2.0), minSegment = 0) }.isInstanceOf(IllegalArgumentException::class.java)
    }

    /** The penalised cost of cutting [xs] at [cuts]. */
    private fun total(xs: List<Double>, cuts: List<Int>, penalty: Double): Double =
        (listOf(0) + cuts + xs.size).zipWithNext { a, b -> rss(xs.subList(a, b)) }.sum() + penalty * cuts.size

    /** Optimal partitioning without pruning (Jackson et al. 2005): the minimum PELT must reach. */
    private fun optimum(xs: List<Double>, minSegment: Int, penalty: Double): Double {
        val n = xs.size
        val f = DoubleArray(n + 1) { Double.POSITIVE_INFINITY }
        f[0] = -penalty
        for (t in minSegment..n) {
            for (s in 0..t - minSegment) {
                if (s != 0 && s < minSegment) continue
                f[t] = minOf(f[t], f[s] + rss(xs.subList(s, t)) + penalty)
            }
        }
        return f[n]
    }

    private fun rss(xs: List<Double>): Double {
        val mean = xs.average()
        return xs.sumOf { (it - mean) * (it - mean) }
    }
}
