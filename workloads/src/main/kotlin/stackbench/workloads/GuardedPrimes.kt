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

    fun upTo(limit: Int): List<Int> = withPermit { Primes.upTo(limit) }

    /**
     * Runs [work] holding a permit, waiting for one first on the calling thread: the hook for a caller that
     * measures the guarded work alone, not the wait for the permit.
     */
    fun <T> withPermit(work: () -> T): T {
        semaphore.acquire()
        try {
            return work()
        } finally {
            semaphore.release()
        }
    }

    /** Permits free right now; for tests and introspection. */
    fun availablePermits(): Int = semaphore.availablePermits()
}
