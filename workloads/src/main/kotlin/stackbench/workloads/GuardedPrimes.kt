package stackbench.workloads

import java.util.concurrent.Semaphore

/**
 * The primes work guarded by a [Semaphore]: at most [permits] computations run at once, the rest of the
 * callers wait their turn on the calling thread. Limits concurrency without a thread pool.
 */
class GuardedPrimes(val permits: Int = Runtime.getRuntime().availableProcessors()) {
    init {
        require(permits >= 1) { "permits must be at least 1, was $permits" }
    }

    private val semaphore = Semaphore(permits, true)

    fun upTo(limit: Int): List<Int> {
        semaphore.acquire()
        try {
            return Primes.upTo(limit)
        } finally {
            semaphore.release()
        }
    }

    /** Permits free right now; for tests and introspection. */
    fun availablePermits(): Int = semaphore.availablePermits()
}
