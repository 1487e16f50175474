package stackbench.apps.endpoints.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.junit.jupiter.api.Test
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
    fun `the snapshot is the count so far`() {
        val completed = CompletedExchanges()
        repeat(3) { completed.increment() }
        val before = System.currentTimeMillis()
        val stats = completed.snapshot()
        assertThat(stats.completed).isEqualTo(3)
        assertThat(stats.epochMillis).isBetween(before, System.currentTimeMillis())
    }

    @Test
    fun `the stats body is the contract's JSON`() {
        assertThat(StatsServer.JSON.writeToString(Stats(12, 1700000000000))).isEqualTo("{\"completed\":12,\"epochMillis\":1700000000000}")
    }
}
