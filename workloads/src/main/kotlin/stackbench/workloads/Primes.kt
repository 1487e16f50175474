package stackbench.workloads

import kotlinx.coroutines.yield

/**
 * The CPU-bound work of the published comparisons: every prime up to [limit] by trial division with the
 * divisors 2..sqrt(i). The list is returned, not counted, so that the JIT cannot drop the work.
 */
object Primes {
    fun upTo(limit: Int): List<Int> {
        val primes = ArrayList<Int>()
        var i = 2
        while (i <= limit) {
            if (isPrime(i)) primes.add(i)
            i++
        }
        return primes
    }

    /**
     * The same work, cooperative: calls kotlinx.coroutines [yield] after every [batch] numbers tested, so that
     * other coroutines on the same dispatcher get the CPU in between. Each batch is a stretch of [stretches], on the
     * thread that runs it (the coroutine may resume on another thread after each yield).
     */
    suspend fun upToCooperative(limit: Int, batch: Int, stretches: Stretches = Stretches.NONE): List<Int> {
        require(batch >= 1) { "batch must be at least 1, was $batch" }
        val primes = ArrayList<Int>()
        var i = 2
        var sinceYield = 0
        var stretch = stretches.start()
        while (i <= limit) {
            if (isPrime(i)) primes.add(i)
            i++
            if (++sinceYield == batch) {
                sinceYield = 0
                stretches.end(stretch)
                yield()
                stretch = stretches.start()
            }
        }
        stretches.end(stretch)
        return primes
    }

    internal fun isPrime(n: Int): Boolean {
        if (n < 2) return false
        val root = kotlin.math.sqrt(n.toDouble()).toInt()
        var d = 2
        while (d <= root) {
            if (n % d == 0) return false
            d++
        }
        return true
    }
}
