package stackbench.contract

/**
 * What the stats side channel answers: `GET /stats` on the app's stats port (`stackbench.stats.port`),
 * served by its own platform thread so that it answers while every request thread or event loop is busy.
 * Every figure is a total since the JVM started (counters only grow, except [loadedClasses]): difference two
 * readings to get what happened between them. A figure the JVM cannot give is null (absent from the JSON).
 */
data class Stats(
    /** The HTTP exchanges the app has completed since it started (not /stats, /info, /actuator/...). */
    val completed: Long,
    /** When the figures were read, by the app's clock (ms since the epoch). */
    val epochMillis: Long,
    /**
     * CPU time of the whole JVM process in ns (`com.sun.management.OperatingSystemMXBean.getProcessCpuTime`): every
     * thread, the app's and the JVM's own (JIT compilers, GC). Null where the JVM does not support it.
     */
    val processCpuNanos: Long? = null,
    /**
     * Total time the JIT compilers have spent compiling, in ms (`CompilationMXBean.getTotalCompilationTime`), an
     * accumulated time summed over the compiler threads, not wall time. Null without a JIT or its time monitoring.
     */
    val compilationMillis: Long? = null,
    /** Accumulated collection time in ms, summed over every `GarbageCollectorMXBean` (those that answer -1 left out). */
    val gcMillis: Long = 0,
    /** Collections so far, summed over every `GarbageCollectorMXBean` (those that answer -1 left out). */
    val gcCount: Long = 0,
    /** Classes loaded right now (`ClassLoadingMXBean.getLoadedClassCount`); it may fall when classes are unloaded. */
    val loadedClasses: Int = 0,
    /**
     * Heap bytes allocated by every thread since the JVM started, those that ended included
     * (`com.sun.management.ThreadMXBean.getTotalThreadAllocatedBytes`, JDK 21 and newer; virtual threads' allocations
     * count on their carriers). Null on an older JVM or where the JVM does not measure it.
     */
    val allocatedBytes: Long? = null,
    /**
     * The CPU time of each endpoint's own work, keyed by the endpoint's path without its query (`/cpu/direct`,
     * `/io/blocking`, `/downstream/webclient`, `/noop`, `/todo`...): only paths that have done work so far. Not the
     * CPU of the request (parsing, routing, security, serialization, the server): see [EndpointWork].
     */
    val work: Map<String, EndpointWork> = emptyMap(),
) {
    companion object {
        const val PATH = "/stats"

        /**
         * Work in stretches (`coop`'s batches) is timed on one request of a path in this many, the first included; the
         * others count as unmeasured ([EndpointWork.unmeasured]).
         */
        const val STRETCH_SAMPLE = 16L

        /** The thread that answers `/stats` (the JDK HTTP server's handler executor). */
        const val HANDLER_THREAD = "stackbench-stats"

        /**
         * The threads that serve the stats side channel, by name: the JDK HTTP server's dispatcher (it accepts and
         * reads) and [HANDLER_THREAD]. The lab finds them by name (in /proc a thread's name is cut to 15 characters)
         * and takes them out of the app's CPU limits: an observer that waits for the CPU the app under test is
         * denied misses its readings.
         */
        val SERVER_THREADS = listOf("HTTP-Dispatcher", HANDLER_THREAD)
    }
}

/**
 * The work of one endpoint since the app started: what its strategy computes or waits for (the primes, the sleep
 * or timer, the downstream call, the handler body of `/noop` and `/todo`), measured on the thread that ran it.
 */
data class EndpointWork(
    /** Requests that did this work (each counted once, when its work ends, whether it succeeded or failed). */
    val count: Long,
    /**
     * The CPU time of the work, in ns, summed over the [count] − [unmeasured] requests whose work was measured:
     * `ThreadMXBean.getCurrentThreadCpuTime()` read before and after the work on the thread that ran it (for
     * `coop`, summed over each batch on whichever thread ran it). On a virtual thread, the CPU of its carrier
     * thread over a stretch in which the virtual thread cannot leave it (the JVM reports no CPU time for virtual
     * threads).
     */
    val cpuNanos: Long,
    /**
     * Of [count], the requests whose work CPU was not measured and added nothing to [cpuNanos]: work that no thread
     * of the request runs (a timer: `suspend-delay`, `mono-delay`; an asynchronous downstream client), a wait on a
     * virtual thread (it leaves its carrier while it waits), or a JVM that cannot read the thread's CPU time.
     */
    val unmeasured: Long = 0,
) {
    /** Mean work CPU per measured request, in ns; null when none was measured. (A function: not a wire field.) */
    fun cpuNanosPerMeasured(): Long? = (count - unmeasured).takeIf { it > 0 }?.let { cpuNanos / it }
}

/** The JSON body of a 502 answer: the downstream call of [client] failed (connection, timeout or status). */
data class DownstreamFailure(
    val error: String,
    val client: String,
    val url: String,
    val message: String,
) {
    companion object {
        const val ERROR = "downstream_failed"
    }
}
