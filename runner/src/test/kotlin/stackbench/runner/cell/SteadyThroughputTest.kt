package stackbench.runner.cell

import stackbench.runner.results.SliceRecord
import java.util.Random
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

class SteadyThroughputTest {
    /**
     * One-second slices: [rate] at second t times (1 + uniform noise within ±[noise]), the JIT compilers at [jit] of
     * the CPU, the app at [cpu] of it, compilations under way [clock] of the clock (null: not reported).
     */
    private fun slices(
        seconds: Int, noise: Double = 0.05, seed: Long = 1, jit: (Int) -> Double = { 0.005 }, cpu: Double = 1.0,
        clock: ((Int) -> Double)? = null, rate: (Int) -> Double = { 29_500.0 },
    ): List<SliceRecord> {
        val rng = Random(seed)
        return List(seconds) { t -> SliceRecord(t + 1.0, rate(t) * (1 + noise * (2 * rng.nextDouble() - 1)), jit(t), cpu, clock?.invoke(t)) }
    }

    /** Whether the rule, judged after every slice as the warm-up judges it, ever calls [s] steady. */
    private fun everSteady(s: List<SliceRecord>, clockMatters: Boolean = true) =
        (1..s.size).any { SteadyThroughput.judge(s.subList(0, it), clockMatters).steady }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5", "6", "7", "8")
    fun `a flat series within 5 %, the JIT at 0-1 % of the CPU, is steady`(seed: Long) {
        // the configuration A: 28,290-30,822 req/s, the JIT compilers at 0-1 % of the CPU, never quiet slice by slice
        val s = slices(60, seed = seed, jit = { t -> if (t % 3 == 0) 0.01 else 0.0 })
        val j = SteadyThroughput.judge(s, clockMatters = true)
        assertThat(j.steady).`as`(j.why).isTrue()
        // and the watch's own quiet rule would not have ended it: the compilers took 1 % of the CPU every third slice
        assertThat(s.takeLast(WarmupWatch.QUIET_SLICES).any { it.compileShare!! > 0 }).isTrue()
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5", "6", "7", "8")
    fun `a series falling 40 % a minute is never steady, judged after every slice`(seed: Long) {
        assertThat(everSteady(slices(60, seed = seed) { t -> 3_000.0 * (1 - 0.4 * t / 60) })).isFalse()
    }

    @ParameterizedTest(name = "seed {0}")
    @CsvSource("1", "2", "3", "4", "5", "6", "7", "8")
    fun `a series still rising is never steady, judged after every slice`(seed: Long) {
        assertThat(everSteady(slices(60, seed = seed) { t -> 1_000.0 * (1 + 0.4 * t / 60) })).isFalse()
    }

    @Test
    fun `a flat series whose JIT share is high and falling is not steady`() {
        // the JIT from 12 % of the CPU down to 3 % over the minute, the throughput flat meanwhile
        val j = SteadyThroughput.judge(slices(60, jit = { t -> 0.12 - 0.09 * t / 59 }), clockMatters = false)
        assertThat(j.steady).isFalse()
        assertThat(j.why).contains("JIT compilers took")
    }

    @Test
    fun `a flat series whose small JIT share is still falling is not steady`() {
        // 2.5 % down to 0.5 %: 1.5 % on average, within the small share, but a compiler winding down
        val j = SteadyThroughput.judge(slices(30, noise = 0.02, jit = { t -> 0.025 - 0.02 * t / 29 }), clockMatters = false)
        assertThat(j.steady).isFalse()
        assertThat(j.why).contains("fell by")
    }

    @Test
    fun `a JIT on CPU that the app left idle does not hold it back`() {
        // an app waiting on I/O: 30 % of its CPU used, the JIT 10 % of it
        val j = SteadyThroughput.judge(slices(30, noise = 0.02, jit = { 0.10 }, cpu = 0.30), clockMatters = true)
        assertThat(j.steady).`as`(j.why).isTrue()
        assertThat(SteadyThroughput.judge(slices(30, noise = 0.02, jit = { 0.10 }, cpu = 0.60), clockMatters = true).steady).isFalse()
    }

    @Test
    fun `a starved compiler's clock holds the warm-up back, but not past its cap`() {
        // the compilers at 1 % of the CPU while compilations are under way 30 % of the clock (Tomcat /noop at 50 connections)
        val s = slices(40, noise = 0.01, jit = { 0.01 }, clock = { 0.30 })
        val during = SteadyThroughput.judge(s, clockMatters = true)
        assertThat(during.steady).isFalse()
        assertThat(during.why).contains("of the clock")
        assertThat(SteadyThroughput.judge(s, clockMatters = false).steady).isTrue()
    }

    @Test
    fun `too few slices are not steady, and say why`() {
        val j = SteadyThroughput.judge(slices(8), clockMatters = true)
        assertThat(j.steady).isFalse()
        assertThat(j.settling).isNull()
        assertThat(j.why).contains("too few")
    }
}
