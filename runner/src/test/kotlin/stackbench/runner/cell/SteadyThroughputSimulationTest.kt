package stackbench.runner.cell

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.results.SliceRecord
import java.util.Random
import kotlin.math.sqrt

/**
 * The throughput rule judged after every slice of simulated one-minute warm-ups, as the watch judges it, over many
 * seeds: how often it ends a flat series, and that it never ends one still falling or rising. The noise is Gaussian
 * with σ of the level, independent or in spells (AR(1), ρ = 0.5: consecutive seconds move together, as a saturated
 * server's do on this machine). docs/methodology.md quotes what it prints.
 */
class SteadyThroughputSimulationTest {
    private data class Outcome(val steady: Int, val medianFirst: Int?)

    private fun simulate(sigma: Double, rho: Double, seeds: Int = 100, rate: (Int) -> Double): Outcome {
        val firsts = (1..seeds).mapNotNull { seed ->
            val rng = Random(seed.toLong())
            var e = 0.0
            val slices = List(60) { t ->
                e = rho * e + sqrt(1 - rho * rho) * rng.nextGaussian()
                SliceRecord(t + 1.0, rate(t) * (1 + sigma * e), 0.005, 1.0)
            }
            (1..slices.size).firstOrNull { SteadyThroughput.judge(slices.subList(0, it), clockMatters = true).steady }
        }.sorted()
        return Outcome(firsts.size, firsts.getOrNull(firsts.size / 2))
    }

    @Test
    fun `flat series end within the minute, falling and rising ones never`() {
        val flat = { _: Int -> 1_000.0 }
        val falling = { t: Int -> 1_000.0 * (1 - 0.4 * t / 60) }
        val rising = { t: Int -> 1_000.0 * (1 + 0.4 * t / 60) }
        for (rho in listOf(0.0, 0.5)) {
            val quiet = simulate(0.025, rho, rate = flat)
            val noisy = simulate(0.05, rho, rate = flat)
            println("steady-throughput simulation, ρ = $rho: flat σ 2.5 %: ${quiet.steady} of 100 steady, median after ${quiet.medianFirst} slices; " +
                "flat σ 5 %: ${noisy.steady} of 100, median after ${noisy.medianFirst}")
            assertThat(quiet.steady).`as`("flat, σ 2.5 %, ρ $rho").isGreaterThanOrEqualTo(95)
            for (sigma in listOf(0.025, 0.05)) {
                assertThat(simulate(sigma, rho, rate = falling).steady).`as`("falling 40 %/min, σ $sigma, ρ $rho").isZero()
                assertThat(simulate(sigma, rho, rate = rising).steady).`as`("rising 40 %/min, σ $sigma, ρ $rho").isZero()
            }
        }
    }
}
