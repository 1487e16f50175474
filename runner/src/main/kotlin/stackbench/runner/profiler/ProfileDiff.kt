package stackbench.runner.profiler

import kotlin.math.abs
import kotlin.math.roundToLong

/**
 * Where two profiles differ, per request: each side's stacks weighted by its share of that side's samples times the
 * side's cost per request (CPU ms per request for a CPU profile), so that a ÷ b compares what one request cost in
 * each, frame by frame. Without a cost per request on both sides the shares alone are compared, and [perRequest]
 * says so. Pure.
 */
class ProfileDiff(a: CollapsedStacks, aPerRequestMs: Double?, b: CollapsedStacks, bPerRequestMs: Double?) {
    val perRequest: Boolean = aPerRequestMs != null && bPerRequestMs != null && aPerRequestMs > 0 && bPerRequestMs > 0
    private val aStacks = weighted(a, aPerRequestMs.takeIf { perRequest } ?: 1.0)
    private val bStacks = weighted(b, bPerRequestMs.takeIf { perRequest } ?: 1.0)

    /** Self time per frame in a and b (ms per request, or shares), largest change first. */
    fun frames(n: Int): List<FrameChange> {
        fun self(stacks: Map<String, Double>) = stacks.entries.groupBy({ it.key.substringAfterLast(';') }, { it.value }).mapValues { it.value.sum() }
        val sa = self(aStacks)
        val sb = self(bStacks)
        return (sa.keys + sb.keys).map { FrameChange(it, sa[it] ?: 0.0, sb[it] ?: 0.0) }
            .sortedWith(compareByDescending<FrameChange> { abs(it.change) }.thenBy { it.frame }).take(n)
    }

    /**
     * The stacks that grew from b to a, and those that shrank, as collapsed stacks whose counts are nanoseconds per
     * request (parts per million of the profile when [perRequest] is false): two flame graphs of the difference.
     */
    fun grewAndShrank(): Pair<Map<String, Long>, Map<String, Long>> {
        val scale = 1e6 // ms per request → ns per request; a share → parts per million
        val grew = HashMap<String, Long>()
        val shrank = HashMap<String, Long>()
        for (stack in aStacks.keys + bStacks.keys) {
            val d = ((aStacks[stack] ?: 0.0) - (bStacks[stack] ?: 0.0)) * scale
            val units = abs(d).roundToLong()
            if (units == 0L) continue
            if (d > 0) grew[stack] = units else shrank[stack] = units
        }
        return grew to shrank
    }

    private fun weighted(p: CollapsedStacks, perRequest: Double): Map<String, Double> = p.stackShares().mapValues { it.value * perRequest }

    companion object {
        /** Collapsed-stack text of [stacks], largest first. */
        fun collapsed(stacks: Map<String, Long>): String =
            stacks.entries.sortedByDescending { it.value }.joinToString("") { "${it.key} ${it.value}\n" }
    }
}

/** One frame's self time in a and in b (ms per request, or a share of the profile), and a − b. */
data class FrameChange(val frame: String, val a: Double, val b: Double) {
    val change: Double get() = a - b
}
