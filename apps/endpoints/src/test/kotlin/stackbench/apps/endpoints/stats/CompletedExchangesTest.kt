package stackbench.apps.endpoints.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.junit.jupiter.api.Test
import stackbench.contract.EndpointWork
import stackbench.contract.Stats

class CompletedExchangesTest {

    @ParameterizedTest(name = "{0} counts: {1}")
    @CsvSource(
        "/noop,true", "/cpu/direct,true", "/todo,true", "/info/x,true", "/actuators,true",
        "/info,false", "/stats,false", "/actuator,false", "/actuator/health,false", "/actuator/health/readiness,false",
    )
    fun `the runner's own probes are not counted`(path: String, counts: Boolean) {
        assertThat(CompletedExchanges.counts(path)).isEqualTo(counts)
    }

    @Test
    fun `the reading is the count so far, with the JVM's signals`() {
        val completed = CompletedExchanges()
        repeat(3) { completed.increment() }
        val before = System.currentTimeMillis()
        val stats = StatsReader(completed, WorkCounters(true, FakeClock())).read()
        assertThat(stats.completed).isEqualTo(3)
        assertThat(stats.epochMillis).isBetween(before, System.currentTimeMillis())
        assertThat(stats.processCpuNanos).isPositive()
        assertThat(stats.compilationMillis).isNotNull().isNotNegative()
        assertThat(stats.gcMillis).isNotNegative()
        assertThat(stats.gcCount).isNotNegative()
        assertThat(stats.loadedClasses).isGreaterThan(100)
        assertThat(stats.work).isEmpty()
    }

    @Test
    fun `the JVM's figures only grow`() {
        val first = StatsReader(CompletedExchanges(), WorkCounters(false, FakeClock())).read()
        var sink = 0L
        repeat(200) { sink += java.util.concurrent.ThreadLocalRandom.current().nextLong() % 7 } // a little CPU in between
        val second = StatsReader(CompletedExchanges(), WorkCounters(false, FakeClock())).read()
        assertThat(second.processCpuNanos!!).isGreaterThanOrEqualTo(first.processCpuNanos!!)
        assertThat(second.compilationMillis!!).isGreaterThanOrEqualTo(first.compilationMillis!!)
        assertThat(second.gcCount).isGreaterThanOrEqualTo(first.gcCount)
        assertThat(second.gcMillis).isGreaterThanOrEqualTo(first.gcMillis)
        assertThat(sink).isNotNull()
    }

    @Test
    fun `the stats body is the contract's JSON, a missing figure left out`() {
        assertThat(StatsServer.JSON.writeToString(Stats(12, 1700000000000)))
            .isEqualTo("{\"completed\":12,\"epochMillis\":1700000000000,\"gcMillis\":0,\"gcCount\":0,\"loadedClasses\":0,\"work\":{}}")
        val full = Stats(
            completed = 12, epochMillis = 1700000000000, processCpuNanos = 123456789, compilationMillis = 4321,
            gcMillis = 17, gcCount = 3, loadedClasses = 9876,
            work = sortedMapOf("/cpu/direct" to EndpointWork(2, 4_000_000, 0), "/io/mono-delay" to EndpointWork(5, 0, 5)),
        )
        assertThat(StatsServer.JSON.writeToString(full)).isEqualTo(
            "{\"completed\":12,\"epochMillis\":1700000000000,\"processCpuNanos\":123456789,\"compilationMillis\":4321," +
                "\"gcMillis\":17,\"gcCount\":3,\"loadedClasses\":9876,\"work\":{" +
                "\"/cpu/direct\":{\"count\":2,\"cpuNanos\":4000000,\"unmeasured\":0}," +
                "\"/io/mono-delay\":{\"count\":5,\"cpuNanos\":0,\"unmeasured\":5}}}",
        )
    }
}
