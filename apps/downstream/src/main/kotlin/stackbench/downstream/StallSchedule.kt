package stackbench.downstream

/**
 * Stall mode: a request that arrives while `(now - serverStart) mod every < window` is held [holdMs] more than
 * it asked, so that the service stalls for a window every period (for coordinated-omission tests). [OFF] holds
 * nothing.
 */
data class StallSchedule(val everyMs: Long, val windowMs: Long, val holdMs: Long) {
    init {
        if (everyMs != 0L || windowMs != 0L || holdMs != 0L) {
            require(everyMs >= 1) { "--stall-every must be at least 1 ms, was $everyMs" }
            require(windowMs in 1..everyMs) { "--stall-window must be 1..$everyMs ms (at most --stall-every), was $windowMs" }
            require(holdMs >= 1) { "--stall-hold must be at least 1 ms, was $holdMs" }
        }
    }

    val on: Boolean get() = everyMs > 0

    /** The extra hold for a request arriving [sinceStartMs] after the server started. */
    fun holdFor(sinceStartMs: Long): Long = if (on && sinceStartMs % everyMs < windowMs) holdMs else 0

    override fun toString(): String = if (on) "every ${everyMs}ms, window ${windowMs}ms, hold ${holdMs}ms" else "off"

    companion object {
        val OFF = StallSchedule(0, 0, 0)
    }
}
