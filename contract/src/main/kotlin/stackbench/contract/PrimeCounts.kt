package stackbench.contract

/**
 * The number of primes at or below a limit, by a sieve of Eratosthenes: an algorithm independent of the
 * trial division the apps run, so a verification built on it can catch a wrong workload.
 */
object PrimeCounts {
    fun upTo(limit: Long): Int {
        require(limit in Parameter.LIMIT.range) { "limit $limit outside ${Parameter.LIMIT.allowed}" }
        if (limit < 2) return 0
        val n = limit.toInt()
        val composite = java.util.BitSet(n + 1)
        var count = 0
        for (i in 2..n) {
            if (composite[i]) continue
            count++
            val square = i.toLong() * i
            if (square <= n) {
                var j = square.toInt()
                while (j <= n) {
                    composite.set(j)
                    j += i
                }
            }
        }
        return count
    }
}
