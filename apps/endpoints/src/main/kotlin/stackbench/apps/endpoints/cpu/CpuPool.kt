package stackbench.apps.endpoints.cpu

import org.springframework.beans.factory.DisposableBean
import org.springframework.core.annotation.Order
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.PlatformThreads
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.PoolReporter
import stackbench.apps.endpoints.info.Source
import stackbench.contract.Pool
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors

/** The fixed pool of the `completable-future` CPU strategy: `stackbench.cpu-pool.size` threads, processors by default. */
@Component
@Order(10)
class CpuPool(properties: StackbenchProperties) : PoolReporter, DisposableBean {
    private val configured = properties.cpuPool.size
    val size: Int = configured ?: Runtime.getRuntime().availableProcessors()
    val executor: ExecutorService =
        Executors.newFixedThreadPool(size, PlatformThreads.numbered("stackbench-cpu-"))

    override fun pools() = listOf(
        Pool("stackbench.cpu-pool", size, Kind.THREADS, Source.of(configured != null),
            "fixed pool of the completable-future CPU strategy; stackbench.cpu-pool.size, default available processors"),
    )

    override fun destroy() {
        executor.shutdownNow()
    }
}
