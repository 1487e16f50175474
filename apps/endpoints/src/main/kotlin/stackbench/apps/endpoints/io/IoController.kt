package stackbench.apps.endpoints.io

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers
import stackbench.contract.IoAnswer
import stackbench.contract.IoStrategy
import stackbench.contract.Parameter
import stackbench.contract.Paths
import stackbench.contract.PathVariable as PathVariableId
import java.time.Duration
import java.util.concurrent.CompletableFuture

/**
 * `GET /io/{strategy}?delay=ms`: answers after `delay` ms, spent where the strategy says (see [IoStrategy]):
 * a sleeping thread for the blocking ones, a timer for `suspend-delay` and `mono-delay`.
 */
@RestController
class IoController(private val ioPool: IoPool) {

    @GetMapping("/io/blocking")
    fun blocking(@RequestParam("delay", required = false) delay: String?): IoAnswer {
        val ms = delayOf(delay)
        Thread.sleep(ms)
        return IoAnswer(IoStrategy.BLOCKING.id, ms)
    }

    @GetMapping("/io/completable-future")
    fun completableFuture(@RequestParam("delay", required = false) delay: String?): CompletableFuture<IoAnswer> {
        val ms = delayOf(delay)
        return CompletableFuture.supplyAsync({ sleep(IoStrategy.COMPLETABLE_FUTURE, ms) }, ioPool.executor)
    }

    @GetMapping("/io/dispatchers-io")
    suspend fun dispatchersIo(@RequestParam("delay", required = false) delay: String?): IoAnswer {
        val ms = delayOf(delay)
        return withContext(Dispatchers.IO) { sleep(IoStrategy.DISPATCHERS_IO, ms) }
    }

    @GetMapping("/io/bounded-elastic")
    fun boundedElastic(@RequestParam("delay", required = false) delay: String?): Mono<IoAnswer> {
        val ms = delayOf(delay)
        return Mono.fromCallable { sleep(IoStrategy.BOUNDED_ELASTIC, ms) }.subscribeOn(Schedulers.boundedElastic())
    }

    @GetMapping("/io/cached-scheduler")
    fun cachedScheduler(@RequestParam("delay", required = false) delay: String?): Mono<IoAnswer> {
        val ms = delayOf(delay)
        return Mono.fromCallable { sleep(IoStrategy.CACHED_SCHEDULER, ms) }.subscribeOn(ioPool.scheduler)
    }

    @GetMapping("/io/suspend-delay")
    suspend fun suspendDelay(@RequestParam("delay", required = false) delay: String?): IoAnswer {
        val ms = delayOf(delay)
        kotlinx.coroutines.delay(ms)
        return IoAnswer(IoStrategy.SUSPEND_DELAY.id, ms)
    }

    @GetMapping("/io/mono-delay")
    fun monoDelay(@RequestParam("delay", required = false) delay: String?): Mono<IoAnswer> {
        val ms = delayOf(delay)
        return Mono.delay(Duration.ofMillis(ms)).map { IoAnswer(IoStrategy.MONO_DELAY.id, ms) }
    }

    /** Any other id: 400 naming `strategy` and the known ids. */
    @GetMapping(Paths.IO)
    fun unknown(@PathVariable("strategy") strategy: String): IoAnswer =
        throw PathVariableId.STRATEGY.unknown(strategy, IoStrategy.entries)

    private fun delayOf(raw: String?): Long = Parameter.DELAY.parse(raw)

    private fun sleep(strategy: IoStrategy, ms: Long): IoAnswer {
        Thread.sleep(ms)
        return IoAnswer(strategy.id, ms)
    }
}
