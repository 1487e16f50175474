package stackbench.apps.endpoints.info

import reactor.core.scheduler.Schedulers
import stackbench.contract.Pool

/**
 * The library pools every app has, sized by each library's own rule: kotlinx.coroutines reads system properties
 * once, when its dispatchers are first used; Reactor computes its sizes into constants at class initialisation.
 */
object LibraryPools {
    const val DEFAULT_CORE_POOL_SIZE = "kotlinx.coroutines.scheduler.core.pool.size"
    const val IO_PARALLELISM = "kotlinx.coroutines.io.parallelism"
    const val PARALLEL_SIZE = "reactor.schedulers.defaultPoolSize"
    const val BOUNDED_ELASTIC_SIZE = "reactor.schedulers.defaultBoundedElasticSize"
    const val BOUNDED_ELASTIC_VIRTUAL = "reactor.schedulers.defaultBoundedElasticOnVirtualThreads"

    fun all(processors: Int = Runtime.getRuntime().availableProcessors(), property: (String) -> String? = System::getProperty) =
        listOf(
            dispatchersDefault(processors, property),
            dispatchersIo(processors, property),
            reactorParallel(Schedulers.DEFAULT_POOL_SIZE, property),
            reactorBoundedElastic(Schedulers.DEFAULT_BOUNDED_ELASTIC_SIZE, Schedulers.DEFAULT_BOUNDED_ELASTIC_QUEUESIZE, property),
        )

    /** kotlinx rule: `-Dkotlinx.coroutines.scheduler.core.pool.size`, else max(2, processors). */
    fun dispatchersDefault(processors: Int, property: (String) -> String?): Pool {
        val set = property(DEFAULT_CORE_POOL_SIZE)?.toIntOrNull()
        return Pool("kotlinx.dispatchers-default", set ?: maxOf(2, processors), Kind.THREADS, Source.of(set != null),
            "Dispatchers.Default: -D$DEFAULT_CORE_POOL_SIZE, default max(2, processors)")
    }

    /** kotlinx rule: `-Dkotlinx.coroutines.io.parallelism`, else max(64, processors). */
    fun dispatchersIo(processors: Int, property: (String) -> String?): Pool {
        val set = property(IO_PARALLELISM)?.toIntOrNull()
        return Pool("kotlinx.dispatchers-io", set ?: maxOf(64, processors), Kind.THREADS, Source.of(set != null),
            "Dispatchers.IO: -D$IO_PARALLELISM, default max(64, processors)")
    }

    /** Reactor's constant, computed from `-Dreactor.schedulers.defaultPoolSize`, else processors. */
    fun reactorParallel(size: Int, property: (String) -> String?) =
        Pool("reactor.parallel", size, Kind.THREADS, Source.of(property(PARALLEL_SIZE) != null),
            "Schedulers.parallel() (also Mono.delay's timer): -D$PARALLEL_SIZE, default processors")

    /** Reactor's constant, computed from `-Dreactor.schedulers.defaultBoundedElasticSize`, else 10 x processors. */
    fun reactorBoundedElastic(size: Int, queue: Int, property: (String) -> String?): Pool {
        val virtual = property(BOUNDED_ELASTIC_VIRTUAL).toBoolean()
        return Pool("reactor.bounded-elastic", size, if (virtual) Kind.VIRTUAL_THREADS else Kind.THREADS,
            Source.of(property(BOUNDED_ELASTIC_SIZE) != null),
            "Schedulers.boundedElastic(): -D$BOUNDED_ELASTIC_SIZE, default 10 x processors; queue $queue tasks per thread" +
                if (virtual) "; on virtual threads (-D$BOUNDED_ELASTIC_VIRTUAL=true)" else "")
    }
}
