package stackbench.workloads

/**
 * A caller's hook around each stretch of work that runs on one thread from its start to its end, with nothing in it
 * that yields, suspends or waits: [start] is called on that thread just before the stretch, [end] on the same thread
 * just after it, with what [start] answered. It lets a caller measure the work alone (its thread's CPU time, say),
 * not the waits between stretches, without this module knowing how.
 */
interface Stretches {
    fun start(): Long

    fun end(start: Long)

    companion object {
        /** No hook: what the workloads use when the caller passes none. */
        val NONE: Stretches = object : Stretches {
            override fun start(): Long = 0L
            override fun end(start: Long) = Unit
        }
    }
}
