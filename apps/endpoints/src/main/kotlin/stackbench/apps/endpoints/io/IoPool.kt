package stackbench.apps.endpoints.io

import org.springframework.beans.factory.DisposableBean
import org.springframework.core.annotation.Order
import org.springframework.stereotype.Component
import reactor.core.scheduler.Scheduler
import reactor.core.scheduler.Schedulers
import stackbench.apps.endpoints.PlatformThreads
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.PoolReporter
import stackbench.apps.endpoints.info.Source
import stackbench.contract.Pool
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors

/**
 * The cached (unbounded) pool of platform threads for blocking I/O: the `completable-future` I/O strategy runs
 * on it directly, `cached-scheduler` through a Reactor [Scheduler] over it.
 */
@Component
@Order(12)
class IoPool : PoolReporter, DisposableBean {
    val executor: ExecutorService =
        Executors.newCachedThreadPool(PlatformThreads.numbered("stackbench-io-"))
    val scheduler: Scheduler = Schedulers.fromExecutorService(executor, "stackbench-io")

    override fun pools() = listOf(
        Pool("stackbench.io-pool", null, Kind.THREADS, Source.DEFAULT,
            "cached pool (unbounded) of the completable-future and cached-scheduler I/O strategies"),
    )

    override fun destroy() {
        scheduler.dispose()
        executor.shutdownNow()
    }
}
