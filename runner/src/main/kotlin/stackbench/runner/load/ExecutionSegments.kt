package stackbench.runner.load

/**
 * How one k6 load is split over [count] instances: instance i runs the execution segment `i/N:(i+1)/N` of the
 * shared sequence `0,1/N,…,1`, so k6 gives each its share of users, iterations and arrival rate, and the
 * shares add up to the whole load. Fractions are written in lowest terms (`0:1/2`, `1/2:1`).
 */
data class ExecutionSegments(val count: Int) {
    init {
        require(count >= 1) { "a split needs at least one instance, not $count" }
    }

    /** `0,1/3,2/3,1`: every instance's bounds, the same for all. */
    val sequence: String get() = (0..count).joinToString(",") { fraction(it, count) }

    /** Instance [i]'s segment, `1/3:2/3`. */
    fun segment(i: Int): String {
        require(i in 0 until count) { "instance $i is not one of 0..${count - 1}" }
        return "${fraction(i, count)}:${fraction(i + 1, count)}"
    }

    /** The flags instance [i] runs with (none for a load that is not split). */
    fun flags(i: Int): List<String> =
        if (count == 1) emptyList() else listOf("--execution-segment", segment(i), "--execution-segment-sequence", sequence)

    private companion object {
        fun fraction(n: Int, d: Int): String {
            if (n == 0) return "0"
            if (n == d) return "1"
            val g = gcd(n, d)
            return "${n / g}/${d / g}"
        }

        tailrec fun gcd(a: Int, b: Int): Int = if (b == 0) a else gcd(b, a % b)
    }
}
