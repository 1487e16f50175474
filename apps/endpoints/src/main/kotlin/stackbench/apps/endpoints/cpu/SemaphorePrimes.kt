package stackbench.apps.endpoints.cpu

import org.springframework.core.annotation.Order
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.PoolReporter
import stackbench.apps.endpoints.info.Source
import stackbench.contract.Pool
import stackbench.workloads.GuardedPrimes

/** The `semaphore` CPU strategy's guard: `stackbench.semaphore.permits` computations at once, processors by default. */
@Component
@Order(11)
class SemaphorePrimes(properties: StackbenchProperties) : PoolReporter {
    private val configured = properties.semaphore.permits
    val guarded = GuardedPrimes(configured ?: Runtime.getRuntime().availableProcessors())

    override fun pools() = listOf(
        Pool("stackbench.semaphore", guarded.permits, Kind.PERMITS, Source.of(configured != null),
            "permits of the semaphore CPU strategy (work runs on the request thread); stackbench.semaphore.permits, default available processors"),
    )
}
