package stackbench.contract

/**
 * What `GET /info` answers: enough to say exactly what ran. Every app fills every field it can;
 * a pool the app does not have is absent from [pools].
 */
data class AppInfo(
    /** The stack id, e.g. `tomcat`, `undertow`, `webflux`. */
    val stack: String,
    /** `servlet` or `reactive`. */
    val model: String,
    val springBoot: String,
    val springFramework: String,
    val server: String,
    val serverVersion: String,
    val jdk: String,
    val jvm: String,
    val garbageCollectors: List<String>,
    val heapMaxBytes: Long,
    val availableProcessors: Int,
    val virtualThreads: Boolean,
    /** Where blocking request work runs: `platform threads`, `virtual threads`, `event loop`... */
    val requestExecution: String,
    val pools: List<Pool>,
    /** The known-truth warm-up mode: null when it is off, or on but not started yet (no affected request so far). */
    val warmupTruth: WarmupTruth? = null,
)

/**
 * The known-truth warm-up mode (`stackbench.warmup-truth.seconds` and `.extra-ms`): every `/io/blocking`,
 * `/io/mono-delay` and `/io/suspend-delay` request waits `extraMs × (1 − t / seconds)` ms more than its delay, t being
 * the seconds since [startedAtEpochMs] (the first such request), and nothing more from [endsAtEpochMs] on: a cost that
 * falls linearly to zero, as a JIT's does, and whose end is known.
 */
data class WarmupTruth(
    /** T: how long the extra cost lasts, from the first affected request. */
    val seconds: Long,
    /** E: the extra wait of a request at t = 0, in ms. */
    val extraMs: Long,
    /** When the clock started (the first affected request arrived), by the app's clock, ms since the epoch. */
    val startedAtEpochMs: Long,
    /** [startedAtEpochMs] + T: from then on requests cost nothing extra (the true steady point). */
    val endsAtEpochMs: Long,
) {
    companion object {
        const val SECONDS_PROPERTY = "stackbench.warmup-truth.seconds"
        const val EXTRA_MS_PROPERTY = "stackbench.warmup-truth.extra-ms"

        /** The extra wait, in ns, of a request arriving [elapsedNanos] after the clock started; 0 from T on. */
        fun extraNanos(seconds: Long, extraMs: Long, elapsedNanos: Long): Long {
            if (seconds <= 0 || extraMs <= 0) return 0
            val total = seconds * 1_000_000_000L
            if (elapsedNanos >= total) return 0
            val remaining = total - maxOf(elapsedNanos, 0L)
            // E ms × remaining / total, in ns, without overflow for any E up to the delay cap
            return (extraMs * 1_000_000.0 * remaining / total).toLong()
        }
    }
}

/**
 * One pool that bounds concurrency. [size] null means unbounded. [source] says where the figure comes
 * from: `runtime` (read from the live object), `property` (set by a property), `default` (the library's rule).
 */
data class Pool(val name: String, val size: Int?, val kind: String, val source: String, val detail: String = "")
