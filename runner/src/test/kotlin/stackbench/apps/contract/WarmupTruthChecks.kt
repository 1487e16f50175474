package stackbench.apps.contract

import org.assertj.core.api.SoftAssertions
import stackbench.contract.AppInfo
import stackbench.contract.Paths
import stackbench.contract.WarmupTruth

/**
 * The known-truth warm-up mode (the app started with [args]): the I/O waits cost E ms more at the first request,
 * falling linearly to nothing T seconds later, and /info says when the clock started and when it ends. Run on a
 * fresh app before any I/O request; it returns after T with the truth /info reported (null if it never started).
 */
object WarmupTruthChecks {
    const val SECONDS = 3L
    const val EXTRA_MS = 400L
    val args = listOf("--${WarmupTruth.SECONDS_PROPERTY}=$SECONDS", "--${WarmupTruth.EXTRA_MS_PROPERTY}=$EXTRA_MS")

    fun check(soft: SoftAssertions, app: RunningApp): WarmupTruth? {
        soft.assertThat(info(app).warmupTruth).`as`("not started before the first affected request").isNull()
        app.http.get(Paths.NOOP) // not an affected endpoint: the clock does not start
        soft.assertThat(info(app).warmupTruth).`as`("/noop does not start the clock").isNull()
        // the coroutine and Reactor paths loaded before the clock, by CPU endpoints the truth does not affect: the first
        // suspend call pays for its classes (457 ms half-way on WebFlux in CI, against 170 + 250), which is not the truth's
        for (path in listOf("/cpu/suspend?limit=10", "/cpu/mono?limit=10")) {
            soft.assertThat(app.http.get(path).status).`as`(path).isEqualTo(200)
        }
        soft.assertThat(info(app).warmupTruth).`as`("CPU endpoints do not start the clock").isNull()

        val sent = System.currentTimeMillis()
        val first = app.http.get("/io/blocking?delay=0")
        soft.assertThat(first.status).`as`("first: %s", first).isEqualTo(200)
        val truth = info(app).warmupTruth
        soft.assertThat(truth).`as`("started").isNotNull()
        if (truth == null) return null
        soft.assertThat(truth.seconds).isEqualTo(SECONDS)
        soft.assertThat(truth.extraMs).isEqualTo(EXTRA_MS)
        soft.assertThat(truth.startedAtEpochMs).`as`("started by the first request").isBetween(sent - 5, sent + first.millis + 5)
        soft.assertThat(truth.endsAtEpochMs).isEqualTo(truth.startedAtEpochMs + SECONDS * 1000)
        // the first request arrives at t ~ 0: it waits (almost) all of E
        soft.assertThat(first.millis).`as`("first request: %s", first).isGreaterThanOrEqualTo(expectedAt(truth, sent + first.millis))

        // half-way: the extra is about E/2, whichever affected endpoint
        for (path in listOf("/io/mono-delay?delay=0", "/io/suspend-delay?delay=0", "/io/blocking?delay=0")) {
            sleepUntil(truth.startedAtEpochMs + SECONDS * 1000 / 2)
            val at = System.currentTimeMillis()
            val answer = app.http.get(path)
            soft.assertThat(answer.status).`as`("%s: %s", path, answer).isEqualTo(200)
            val least = expectedAt(truth, at + answer.millis)
            val most = expectedAt(truth, at)
            soft.assertThat(answer.millis).`as`("%s half-way, expected %s..%s ms (+ overhead): %s", path, least, most, answer)
                .isBetween(least - 1, most + 250)
        }

        // from T on: nothing extra. Bounded by E/2 (the half-way extra), not by a request's usual time: a clock that
        // restarted or never ended would add hundreds of ms, where a busy CI machine has taken 112 ms for a request
        // with no extra (ITs run in two JVMs beside this app)
        sleepUntil(truth.endsAtEpochMs + 100)
        for (path in listOf("/io/blocking?delay=0", "/io/mono-delay?delay=0", "/io/suspend-delay?delay=0")) {
            val answer = app.http.get(path)
            soft.assertThat(answer.status).`as`("%s: %s", path, answer).isEqualTo(200)
            soft.assertThat(answer.millis).`as`("%s after T: %s", path, answer).isLessThan(EXTRA_MS / 2)
        }
        soft.assertThat(info(app).warmupTruth).`as`("the same truth after T").isEqualTo(truth)
        return truth
    }

    /** The extra of a request arriving at [epochMs], in whole ms, rounded down. */
    private fun expectedAt(truth: WarmupTruth, epochMs: Long): Long =
        WarmupTruth.extraNanos(truth.seconds, truth.extraMs, (epochMs - truth.startedAtEpochMs) * 1_000_000) / 1_000_000

    private fun info(app: RunningApp): AppInfo = app.http.get(Paths.INFO).json()

    private fun sleepUntil(epochMs: Long) {
        val wait = epochMs - System.currentTimeMillis()
        if (wait > 0) Thread.sleep(wait)
    }
}
