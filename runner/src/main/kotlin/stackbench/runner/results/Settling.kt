package stackbench.runner.results

/** One warm-up slice as recorded: when it ended (s from the warm-up's start), the app's own rate, and the JIT's share of its CPU. */
data class SliceRecord(
    val endSeconds: Double,
    val rate: Double,
    /** The JIT compiler threads' CPU over the CPU allotted in the slice. */
    val compileShare: Double? = null,
    /** The app's whole CPU (compiler included) over the CPU allotted in the slice. */
    val cpuShare: Double? = null,
    /** The slice's wall clock with a JIT compilation under way (summed over the compiler threads), over the slice. */
    val compilingShare: Double? = null,
)

/**
 * How a warm-up went: how long it ran, why it ended (`steady`: compilation quiet and throughput without trend;
 * `cap`: its longest allowed length first), where the app's last level began (the time to steady state), and every slice.
 */
data class WarmupRecord(
    val seconds: Double,
    val endedBy: String,
    /** Seconds from the warm-up's start to where its last level began; null when no level showed. */
    val steadyAfterSeconds: Double?,
    /** The same point on the app's clock (epoch ms). */
    val steadyAtEpochMs: Long?,
    val slices: List<SliceRecord> = emptyList(),
)

/**
 * Priming: a new app process's HTTP path warmed until steady with `/noop` at [connections] before its first cell,
 * so that cell is no colder than the ones after it; then `/noop` at [saturationConnections] for a few seconds, and
 * the CPU one HTTP exchange costs the app there (its whole CPU per answer, less the handler's own work), for the
 * CPU-time ceilings.
 */
data class PrimeRecord(
    val path: String,
    val connections: Int,
    val warmup: WarmupRecord,
    val httpCpuMsPerRequest: Double?,
    /** The connections of the saturating stage that [httpCpuMsPerRequest] was read over. */
    val saturationConnections: Int? = null,
    /** The saturating stage: how it ended (steady or at its cap) and its slices; [httpCpuMsPerRequest] is its last seconds. */
    val saturation: WarmupRecord? = null,
)

/** How the app's own per-second throughput behaved over the measured window, by changepoint analysis. */
data class WindowRecord(
    /** `flat`, `warming`, `slowing` or `no-steady-state`. */
    val shape: String,
    /** The second of the window where its last level began; null with no steady state. */
    val steadyFromSecond: Int?,
    val reason: String,
    /** Closed model: the window's length over the median latency, the round trips each connection made. */
    val roundTripsPerConnection: Double? = null,
    /** When the window was lengthened to hold enough round trips: the length the plan asked for, ms. */
    val plannedMs: Long? = null,
    /** The 95 % interval's half-width of the window's mean per-second throughput, as a share of it ([stackbench.runner.stats.WindowPrecision]). */
    val precision: Double? = null,
    /** How many consecutive seconds of the series move together (τ): the window holds its length ÷ τ independent readings. */
    val autocorrelationSeconds: Double? = null,
    /**
     * Closed model under Little's law: the window's answers over the binding concurrency limit
     * ([stackbench.runner.results.Ceiling.concurrency]), the waves of completions it held. Where a pool smaller than
     * the connections binds, a wave comes every service time, not every round trip, so the window's cut moves the
     * count by at most one wave: 1 ÷ [waves] of it.
     */
    val waves: Double? = null,
    /**
     * Set when `stackbench reclassify` changed the shape of a window measured under an earlier classifier: the shape it
     * was recorded with and why (`warming: from the second second on: ...`), so the record keeps what was first read.
     */
    val reclassifiedFrom: String? = null,
)

/**
 * The JVM over the measured window, from its stats channel: JIT compilation time, GC time and classes loaded
 * in the window, and the CPU time of the cell's endpoint's work per request, on the threads that ran it.
 */
data class JvmWindow(
    val compilationMs: Long? = null,
    val gcMs: Long? = null,
    val classesLoaded: Long? = null,
    val workRequests: Long? = null,
    val workCpuMsPerRequest: Double? = null,
    /** The whole JVM's CPU per completed request in the window. */
    val cpuMsPerRequest: Double? = null,
    /** The JIT compiler threads' own CPU time over the window (`/proc`), ms: unlike [compilationMs], no waits for the CPU in it. */
    val compilerCpuMs: Double? = null,
)
