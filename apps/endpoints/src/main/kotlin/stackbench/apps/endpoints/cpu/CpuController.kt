package stackbench.apps.endpoints.cpu

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers
import stackbench.contract.CpuStrategy
import stackbench.contract.Paths
import stackbench.contract.PathVariable as PathVariableId
import stackbench.contract.PrimesAnswer
import stackbench.workloads.Primes
import java.util.concurrent.CompletableFuture

/**
 * `GET /cpu/{strategy}?limit=N[&batch=B]`: the primes up to N, computed where the strategy says
 * (see [CpuStrategy]). One handler per strategy, each as lean as the strategy itself.
 */
@RestController
class CpuController(private val cpuPool: CpuPool, private val semaphore: SemaphorePrimes) {

    @GetMapping("/cpu/direct")
    fun direct(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer =
        CpuParams.parse(limit, batch).primes()

    @GetMapping("/cpu/suspend")
    suspend fun suspending(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer =
        CpuParams.parse(limit, batch).primes()

    @GetMapping("/cpu/dispatchers-default")
    suspend fun dispatchersDefault(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer {
        val params = CpuParams.parse(limit, batch)
        return withContext(Dispatchers.Default) { params.primes() }
    }

    @GetMapping("/cpu/completable-future")
    fun completableFuture(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): CompletableFuture<PrimesAnswer> {
        val params = CpuParams.parse(limit, batch)
        return CompletableFuture.supplyAsync({ params.primes() }, cpuPool.executor)
    }

    @GetMapping("/cpu/mono")
    fun mono(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): Mono<PrimesAnswer> {
        val params = CpuParams.parse(limit, batch)
        return Mono.fromCallable { params.primes() }
    }

    @GetMapping("/cpu/mono-parallel")
    fun monoParallel(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): Mono<PrimesAnswer> {
        val params = CpuParams.parse(limit, batch)
        return Mono.fromCallable { params.primes() }.subscribeOn(Schedulers.parallel())
    }

    @GetMapping("/cpu/coop")
    suspend fun coop(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer {
        val params = CpuParams.parse(limit, batch)
        return withContext(Dispatchers.Default) { params.answer(Primes.upToCooperative(params.limit, params.batch)) }
    }

    @GetMapping("/cpu/semaphore")
    fun semaphore(@RequestParam("limit", required = false) limit: String?, @RequestParam("batch", required = false) batch: String?): PrimesAnswer {
        val params = CpuParams.parse(limit, batch)
        return params.answer(semaphore.guarded.upTo(params.limit))
    }

    /** Any other id: 400 naming `strategy` and the known ids (the literal paths above win over this pattern). */
    @GetMapping(Paths.CPU)
    fun unknown(@PathVariable("strategy") strategy: String): PrimesAnswer =
        throw PathVariableId.STRATEGY.unknown(strategy, CpuStrategy.entries)
}
