package stackbench.runner.run

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.probe.ServerCount
import java.time.Duration

class SteadyWatchTest {
    /** Readings every 500 ms of an app whose rate per second is given second by second. */
    private fun readings(ratePerSecond: List<Int>): Iterator<ServerCount> {
        var count = 0L
        return ratePerSecond.flatMapIndexed { second, rate ->
            listOf(0, 500).map { ms -> ServerCount(second * 1000L + ms, count).also { count += rate / 2 } }
        }.iterator()
    }

    @Test
    fun `steady once two windows in a row agree, not while the rate still climbs`() {
        val it = readings(listOf(100, 300, 600, 900, 1000, 1010, 1000, 1005, 1000, 1000))
        val watch = SteadyWatch({ if (it.hasNext()) it.next() else null }, Duration.ofSeconds(2), 0.05)
        val polls = generateSequence { if (it.hasNext()) watch.poll() else null }.toList()
        assertThat(watch.rates.first()).isLessThan(watch.rates.last())
        val firstSteady = polls.indexOf(true)
        assertThat(firstSteady).isGreaterThan(8) // not before the climb is over
        assertThat(watch.rates.takeLast(2)).allSatisfy { assertThat(it).isBetween(950.0, 1060.0) }
    }

    @Test
    fun `a rate that keeps changing is never steady`() {
        val it = readings(listOf(100, 200, 400, 800, 1600, 3200, 6400, 12800))
        val watch = SteadyWatch({ if (it.hasNext()) it.next() else null }, Duration.ofSeconds(2), 0.05)
        assertThat(generateSequence { if (it.hasNext()) watch.poll() else null }.toList()).doesNotContain(true)
    }
}
