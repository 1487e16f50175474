package stackbench.apps.endpoints.cpu

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers
import stackbench.apps.endpoints.stats.WorkCounters
import stackbench.contract.CpuStrategy
import stackbench.contract.Paths
import stackbench.contract.PathVariable as PathVariableId
import stackbench.contract.PrimesAnswer
import stackbench.workloads.Primes
import java.util.concurrent.CompletableFuture

/**
 * `GET /cpu/{strategy}?limit=N[&batch=B]`: the primes up to N, computed where the strategy says
 * (see [CpuStrategy]). One handler per strategy, each as lean as the strategy itself. The primes computation, and
 * only it, is measured on the thread that runs it ([WorkCounters]).
 */
@RestController
class CpuController(private val cpuPool: CpuPool, private val semaphore: SemaphorePrimes, private val work: WorkCounters) {

    @GetMapping(DIRECT)
    fun direct(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer {
        val params = CpuParams.parse(limit, batch)
        return work.cpu(DIRECT) { params.primes() }
    }

    @GetMapping(SUSPEND)
    suspend fun suspending(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer {
        val params = CpuParams.parse(limit, batch)
        return work.cpu(SUSPEND) { params.primes() }
    }

    @GetMapping(DISPATCHERS_DEFAULT)
    suspend fun dispatchersDefault(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer {
        val params = CpuParams.parse(limit, batch)
        return withContext(Dispatchers.Default) { work.cpu(DISPATCHERS_DEFAULT) { params.primes() } }
    }

    @GetMapping(COMPLETABLE_FUTURE)
    fun completableFuture(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): CompletableFuture<PrimesAnswer> {
        val params = CpuParams.parse(limit, batch)
        return CompletableFuture.supplyAsync({ work.cpu(COMPLETABLE_FUTURE) { params.primes() } }, cpuPool.executor)
    }

    @GetMapping(MONO)
    fun mono(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): Mono<PrimesAnswer> {
        val params = CpuParams.parse(limit, batch)
        return Mono.fromCallable { work.cpu(MONO) { params.primes() } }
    }

    @GetMapping(MONO_PARALLEL)
    fun monoParallel(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): Mono<PrimesAnswer> {
        val params = CpuParams.parse(limit, batch)
        return Mono.fromCallable { work.cpu(MONO_PARALLEL) { params.primes() } }.subscribeOn(Schedulers.parallel())
    }

    /** Yields between batches and may resume on another thread: the CPU of each batch, on the thread that ran it. */
    @GetMapping(COOP)
    suspend fun coop(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer {
        val params = CpuParams.parse(limit, batch)
        return withContext(Dispatchers.Default) {
            work.stretches(COOP) { batches -> params.answer(Primes.upToCooperative(params.limit, params.batch, batches)) }
        }
    }

    /** The wait for a permit is not work: only the computation inside the permit is measured. */
    @GetMapping(SEMAPHORE)
    fun semaphore(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer {
        val params = CpuParams.parse(limit, batch)
        return semaphore.guarded.withPermit { work.cpu(SEMAPHORE) { params.primes() } }
    }

    /** Any other id: 400 naming `strategy` and the known ids (the literal paths above win over this pattern). */
    @GetMapping(Paths.CPU)
    fun unknown(@PathVariable("strategy") strategy: String): PrimesAnswer =
        throw PathVariableId.STRATEGY.unknown(strategy, CpuStrategy.entries)

    /** The paths, which are also the keys of their work in the stats side channel. */
    companion object {
        const val DIRECT = "/cpu/direct"
        const val SUSPEND = "/cpu/suspend"
        const val DISPATCHERS_DEFAULT = "/cpu/dispatchers-default"
        const val COMPLETABLE_FUTURE = "/cpu/completable-future"
        const val MONO = "/cpu/mono"
        const val MONO_PARALLEL = "/cpu/mono-parallel"
        const val COOP = "/cpu/coop"
        const val SEMAPHORE = "/cpu/semaphore"
    }
}
