package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import java.util.Random
import kotlin.math.sqrt

class WindowPrecisionTest {

    /** An AR(1) series around [level]: each second keeps [phi] of the last one's deviation, as a busy host's spells do. */
    private fun ar1(n: Int, phi: Double, level: Double, sd: Double, seed: Long): List<Double> {
        val rng = Random(seed)
        var dev = 0.0
        val innovation = sd * sqrt(1 - phi * phi)
        return List(n) { dev = phi * dev + innovation * rng.nextGaussian(); level + dev }
    }

    @Test
    fun `independent seconds give the textbook interval`() {
        val xs = ar1(400, 0.0, 1_000.0, 100.0, 7)
        val p = WindowPrecision.of(xs)!!
        assertThat(p.autocorrelationSeconds).isBetween(0.7, 1.5)
        // 1.96 σ / √n = 9.8 req/s
        assertThat(p.halfWidth).isCloseTo(9.8, within(2.5))
        assertThat(p.mean).isCloseTo(1_000.0, within(15.0))
    }

    @Test
    fun `seconds that move together hold fewer independent readings`() {
        // for AR(1), τ = (1 + φ) / (1 - φ): 4 at φ = 0.6
        val taus = (1L..5L).map { seed -> WindowPrecision.of(ar1(3_000, 0.6, 1_000.0, 100.0, seed))!!.autocorrelationSeconds }
        assertThat(taus.average()).isBetween(3.3, 4.7)
        val correlated = WindowPrecision.of(ar1(3_000, 0.6, 1_000.0, 100.0, 11))!!
        val independent = WindowPrecision.of(ar1(3_000, 0.0, 1_000.0, 100.0, 11))!!
        // √4 = twice as wide
        assertThat(correlated.halfWidth / independent.halfWidth).isBetween(1.6, 2.4)
        assertThat(correlated.effectiveSeconds).isCloseTo(3_000 / correlated.autocorrelationSeconds, within(1e-9))
    }

    @Test
    fun `the interval covers the true mean about 95 times in 100`() {
        val covered = (1L..400L).count { seed ->
            val p = WindowPrecision.of(ar1(60, 0.5, 1_000.0, 150.0, seed))!!
            kotlin.math.abs(p.mean - 1_000.0) <= p.halfWidth
        }
        // a 60-point series underestimates τ a little (about 91 % in simulation): allow 87-99 %
        assertThat(covered).isBetween(348, 396)
    }

    @Test
    fun `a saturated Tomcat's 30 s of noop on one CPU cannot pin its mean within 5 %`() {
        // the app's own completions per second, seconds 2-30 of a measured window (2026-11-24, steady-noop r1)
        val xs = listOf(
            10970.3, 14068.8, 23232.4, 25373.6, 24620.2, 22026.2, 20160.6, 22354.5, 25122.0, 21029.1, 24258.4, 27635.3,
            26351.0, 23106.2, 15005.0, 20728.6, 27050.3, 21494.2, 14929.9, 15693.3, 13860.0, 17171.4, 16995.6, 14493.6,
            15036.8, 13664.0, 13628.0, 14341.1, 14181.9,
        )
        val p = WindowPrecision.of(xs)!!
        assertThat(p.autocorrelationSeconds).isGreaterThan(2.0)
        assertThat(p.relative).isGreaterThan(0.05)
    }

    @Test
    fun `a constant series is exact, a short one has no precision`() {
        assertThat(WindowPrecision.of(List(20) { 500.0 })!!.halfWidth).isEqualTo(0.0)
        assertThat(WindowPrecision.of(List(WindowPrecision.MIN_SECONDS - 1) { 500.0 + it })).isNull()
    }
}
