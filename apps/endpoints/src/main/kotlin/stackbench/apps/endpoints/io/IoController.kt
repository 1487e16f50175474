package stackbench.apps.endpoints.io

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers
import stackbench.apps.endpoints.stats.WorkCounters
import stackbench.contract.IoAnswer
import stackbench.contract.IoStrategy
import stackbench.contract.Parameter
import stackbench.contract.Paths
import stackbench.contract.PathVariable as PathVariableId
import java.time.Duration
import java.util.concurrent.CompletableFuture

/**
 * `GET /io/{strategy}?delay=ms`: answers after `delay` ms, spent where the strategy says (see [IoStrategy]):
 * a sleeping thread for the blocking ones, a timer for `suspend-delay` and `mono-delay`. The sleep is measured on the
 * thread that sleeps ([WorkCounters]); a timer is counted, not measured. `blocking`, `suspend-delay` and `mono-delay`
 * wait longer at first in the known-truth warm-up mode ([WarmupTruthClock]); `blocking` sleeps inside a class initializer
 * in the known-truth pinning mode ([PinningTruth]).
 */
@RestController
class IoController(
    private val ioPool: IoPool,
    private val work: WorkCounters,
    private val truth: WarmupTruthClock,
    private val pinning: PinningTruth,
) {

    @GetMapping(BLOCKING)
    fun blocking(@RequestParam("delay", required = false) delay: String?): IoAnswer {
        val ms = delayOf(delay)
        if (truth.on) {
            val wait = truth.delay(ms)
            // not Thread.sleep(Duration), JDK 19+: sleep(ms, ns) is as exact on JDK 21+, rounded up to whole ms on JDK 17
            work.blocking(BLOCKING) { Thread.sleep(wait.toMillis(), wait.toNanosPart() % 1_000_000) }
        } else if (pinning.on) {
            work.blocking(BLOCKING) { pinning.sleep(ms * 1_000_000) }
        } else {
            work.blocking(BLOCKING) { Thread.sleep(ms) }
        }
        return IoAnswer(IoStrategy.BLOCKING.id, ms)
    }

    @GetMapping(COMPLETABLE_FUTURE)
    fun completableFuture(@RequestParam("delay", required = false) delay: String?): CompletableFuture<IoAnswer> {
        val ms = delayOf(delay)
        return CompletableFuture.supplyAsync({ sleep(IoStrategy.COMPLETABLE_FUTURE, COMPLETABLE_FUTURE, ms) }, ioPool.executor)
    }

    @GetMapping(DISPATCHERS_IO)
    suspend fun dispatchersIo(@RequestParam("delay", required = false) delay: String?): IoAnswer {
        val ms = delayOf(delay)
        return withContext(Dispatchers.IO) { sleep(IoStrategy.DISPATCHERS_IO, DISPATCHERS_IO, ms) }
    }

    @GetMapping(BOUNDED_ELASTIC)
    fun boundedElastic(@RequestParam("delay", required = false) delay: String?): Mono<IoAnswer> {
        val ms = delayOf(delay)
        return Mono.fromCallable { sleep(IoStrategy.BOUNDED_ELASTIC, BOUNDED_ELASTIC, ms) }.subscribeOn(Schedulers.boundedElastic())
    }

    @GetMapping(CACHED_SCHEDULER)
    fun cachedScheduler(@RequestParam("delay", required = false) delay: String?): Mono<IoAnswer> {
        val ms = delayOf(delay)
        return Mono.fromCallable { sleep(IoStrategy.CACHED_SCHEDULER, CACHED_SCHEDULER, ms) }.subscribeOn(ioPool.scheduler)
    }

    @GetMapping(SUSPEND_DELAY)
    suspend fun suspendDelay(@RequestParam("delay", required = false) delay: String?): IoAnswer {
        val ms = delayOf(delay)
        kotlinx.coroutines.delay(if (truth.on) truth.delayMillis(ms) else ms)
        work.unmeasured(SUSPEND_DELAY)
        return IoAnswer(IoStrategy.SUSPEND_DELAY.id, ms)
    }

    @GetMapping(MONO_DELAY)
    fun monoDelay(@RequestParam("delay", required = false) delay: String?): Mono<IoAnswer> {
        val ms = delayOf(delay)
        return Mono.delay(if (truth.on) truth.delay(ms) else Duration.ofMillis(ms)).map {
            work.unmeasured(MONO_DELAY)
            IoAnswer(IoStrategy.MONO_DELAY.id, ms)
        }
    }

    /** Any other id: 400 naming `strategy` and the known ids. */
    @GetMapping(Paths.IO)
    fun unknown(@PathVariable("strategy") strategy: String): IoAnswer =
        throw PathVariableId.STRATEGY.unknown(strategy, IoStrategy.entries)

    private fun delayOf(raw: String?): Long = Parameter.DELAY.parse(raw)

    private fun sleep(strategy: IoStrategy, path: String, ms: Long): IoAnswer {
        work.blocking(path) { Thread.sleep(ms) }
        return IoAnswer(strategy.id, ms)
    }

    /** The paths, which are also the keys of their work in the stats side channel. */
    companion object {
        const val BLOCKING = "/io/blocking"
        const val COMPLETABLE_FUTURE = "/io/completable-future"
        const val DISPATCHERS_IO = "/io/dispatchers-io"
        const val BOUNDED_ELASTIC = "/io/bounded-elastic"
        const val CACHED_SCHEDULER = "/io/cached-scheduler"
        const val SUSPEND_DELAY = "/io/suspend-delay"
        const val MONO_DELAY = "/io/mono-delay"
    }
}
