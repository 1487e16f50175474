package stackbench.apps.contract

import org.assertj.core.api.SoftAssertions
import stackbench.contract.Paths
import stackbench.contract.Stats

/** The stats side channel counts completed exchanges, synchronous and asynchronous, but not /info or /actuator. */
object StatsChecks {
    fun check(soft: SoftAssertions, app: RunningApp) {
        val before = settled(app)
        soft.assertThat(before.epochMillis).`as`("stats clock").isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(5_000L))
        repeat(5) { app.http.get(Paths.NOOP) }
        repeat(3) { app.http.get("/io/completable-future?delay=10") }
        repeat(2) { app.http.get("/io/mono-delay?delay=10") }
        app.http.get("/cpu/suspend?limit=10")
        app.http.get(Paths.INFO)
        app.http.get(Paths.HEALTH)
        val counted = settled(app).completed - before.completed
        soft.assertThat(counted).`as`("exchanges counted: 5 sync, 6 async; /info and /actuator not").isEqualTo(11)
    }

    /** Reads until two reads 200 ms apart agree: the last exchanges may be counted just after their answer. */
    private fun settled(app: RunningApp): Stats {
        var last = app.stats()
        repeat(20) {
            Thread.sleep(200)
            val now = app.stats()
            if (now.completed == last.completed) return now
            last = now
        }
        return last
    }
}
