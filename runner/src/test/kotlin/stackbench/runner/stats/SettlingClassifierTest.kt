package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import java.util.Random

class SettlingClassifierTest {
    /** One-second slices: [level] at second t times (1 + uniform noise within ±[noise]). */
    private fun series(seconds: Int, noise: Double, seed: Long, level: (Int) -> Double): Pair<List<Double>, List<Double>> {
        val rng = Random(seed)
        val rates = List(seconds) { t -> level(t) * (1 + noise * (2 * rng.nextDouble() - 1)) }
        return List(seconds) { it + 1.0 } to rates
    }

    private fun classify(s: Pair<List<Double>, List<Double>>) = SettlingClassifier.classify(s.first, s.second)

    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5", "6", "7", "8")
    fun `a flat series scattering within 5 % is settled`(seed: Long) {
        // the third-party service: slices of 28,290-30,822 req/s for a minute
        val c = classify(series(60, 0.05, seed) { 29_500.0 })!!
        assertThat(c.kind).`as`(c.text).isEqualTo(SettlingKind.SETTLED)
        assertThat(c.drift.within(SettlingClassifier.MAX_DRIFT)).isTrue()
        assertThat(c.label).startsWith("settled after")
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5", "6", "7", "8")
    fun `a series losing 40 % a minute is falling, at about that rate`(seed: Long) {
        val c = classify(series(60, 0.05, seed) { t -> 3_000.0 * (1 - 0.4 * t / 60) })!!
        assertThat(c.kind).`as`(c.text).isEqualTo(SettlingKind.FALLING)
        // a share of the judged stretch's own level, which is below the start
        assertThat(-c.drift.perMinute).isBetween(0.3, 0.9)
        assertThat(c.label).startsWith("falling")
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5")
    fun `a service that slows as it runs, with pauses, is falling`(seed: Long) {
        // the configuration B: 2,948 falling to 1,689 req/s over the minute, every ninth second a pause at 0
        val (ends, rates) = series(60, 0.05, seed) { t -> 2_948.0 - (2_948.0 - 1_689.0) * t / 59 }
        val c = SettlingClassifier.classify(ends, rates.mapIndexed { i, r -> if (i % 9 == 8) 0.0 else r })!!
        assertThat(c.kind).`as`(c.text).isEqualTo(SettlingKind.FALLING)
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5")
    fun `a series still climbing at the end is rising`(seed: Long) {
        val c = classify(series(60, 0.05, seed) { t -> 1_000.0 + 20.0 * t })!!
        assertThat(c.kind).`as`(c.text).isEqualTo(SettlingKind.RISING)
        assertThat(c.drift.perMinute).isGreaterThan(SettlingClassifier.MAX_DRIFT)
    }

    @Test
    fun `a series that climbs, then holds, settled where it began to hold`() {
        val c = classify(series(60, 0.03, 11) { t -> if (t < 20) 1_000.0 + 100.0 * t else 3_000.0 })!!
        assertThat(c.kind).`as`(c.text).isEqualTo(SettlingKind.SETTLED)
        assertThat(c.fromSeconds).isCloseTo(20.0, within(1.5))
        assertThat(c.text).contains("settled after")
    }

    @Test
    fun `waves of answers that never level are oscillating, with their swing`() {
        // a closed load completing in waves: 0 and twice the level in turn, with a little noise
        val (ends, rates) = series(40, 0.05, 3) { 500.0 }
        val c = SettlingClassifier.classify(ends, rates.mapIndexed { i, r -> if (i % 2 == 0) 0.2 * r else 1.8 * r })!!
        assertThat(c.kind).`as`(c.text).isEqualTo(SettlingKind.OSCILLATING)
        assertThat(c.scatter).isGreaterThan(0.5)
        assertThat(c.label).startsWith("oscillating ±")
    }

    @Test
    fun `fewer slices than a class needs, or nothing answered, give no class`() {
        assertThat(classify(series(SettlingClassifier.MIN_POINTS - 1, 0.01, 1) { 100.0 })).isNull()
        assertThat(SettlingClassifier.classify(List(20) { it + 1.0 }, List(20) { 0.0 })).isNull()
    }
}
