package stackbench.runner.results

import java.util.Locale

/**
 * A percentile read from the answers alone, when requests timed out. A load generator times only what was answered:
 * a request past its timeout is counted as an error and its latency is never recorded, though it is longer than every
 * answer the window holds. So the recorded p-th percentile is a lower bound: over every request sent (n answered,
 * t timed out), the true one is the recorded percentile at q × (n + t) ÷ n, higher up the answers' tail; and once
 * the timeouts reach the whole tail beyond it, (1 − q) × (n + t), the true one is past the timeout itself.
 *
 * A window whose timeouts reach [MAX_SHARE_OF_TAIL] of the tail beyond a percentile is left out of that percentile
 * (the flag [CODE]): under it, the true p99 lies between the recorded p99 and p99.1 (for p50, p50 and p55). Pure.
 */
object TimedOutTail {
    const val CODE = "timed-out-tail"

    /** Timeouts at this share of the tail beyond a percentile or more leave that percentile unknown. */
    const val MAX_SHARE_OF_TAIL = 0.1

    /** The flag of a window whose timeouts hide the tail beyond the [quantile] (0.99 for p99) of [label], or null. */
    fun flag(m: LoadResult, quantile: Double, label: String): Flag? {
        val timedOut = m.errors["timeout"] ?: 0L
        if (timedOut <= 0L) return null
        val sent = m.responses + timedOut
        val tail = (1 - quantile) * sent
        if (timedOut < MAX_SHARE_OF_TAIL * tail) return null
        val share = timedOut / tail
        val where = if (share >= 1.0) "past the timeout" else "above the recorded one"
        return Flag(
            CODE,
            "$label unknown: $timedOut of $sent requests timed out unrecorded, ${pct(share)} of the ${pct(1 - quantile)} tail beyond it, " +
                "so the true $label is $where",
            "latency",
        )
    }

    private fun pct(x: Double) = if (x >= 0.1) "%.0f %%".format(Locale.ROOT, x * 100) else "%.1f %%".format(Locale.ROOT, x * 100)
}
