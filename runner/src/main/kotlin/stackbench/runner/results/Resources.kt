package stackbench.runner.results

/** One reading of the app, its cgroup, its own counter and the driver; counters cumulative as read. */
data class Sample(
    /** ms since the measured window opened; negative before it. */
    val tMs: Long,
    val epochMs: Long,
    val cpuMs: Double?,
    val rssBytes: Long?,
    val threads: Int?,
    val voluntaryCtx: Long?,
    val involuntaryCtx: Long?,
    val cgroupCpuMs: Double?,
    val throttledPeriods: Long?,
    val throttledMs: Double?,
    /** The app's completed-request counter and the app's own timestamp of that reading. */
    val serverCompleted: Long?,
    val serverEpochMs: Long?,
    val driverCpuMs: Double?,
)

/** The resource figures of one measured window (see docs/results-schema.md). */
data class ResourceSummary(
    val cpuShare: Double? = null,
    val cpuShareMax: Double? = null,
    val rssMaxBytes: Long? = null,
    val rssMeanBytes: Long? = null,
    val threadsMax: Int? = null,
    val voluntaryCtxPerSecond: Double? = null,
    val involuntaryCtxPerSecond: Double? = null,
    val voluntaryCtx: Long? = null,
    val involuntaryCtx: Long? = null,
    val throttledPeriods: Long? = null,
    val periods: Long? = null,
    val throttledMs: Double? = null,
    val memoryPeakBytes: Long? = null,
    val oomKills: Long? = null,
    /** GC pauses in the window, from the GC log of a JVM the lab started; null for any other app (unknown, not none). */
    val gcPauses: Int? = 0,
    val gcPauseTotalMs: Double? = 0.0,
    val gcPauseMaxMs: Double? = 0.0,
    val driverCpuShare: Double? = null,
    val driverCpus: Double? = null,
    val serverPerSecond: List<Double?> = emptyList(),
    val sampleCount: Int = 0,
    val sampleIntervalMs: Double? = null,
    val samplerCpuMs: Double? = null,
    val gcPausesList: List<GcPause> = emptyList(),
)

/** A GC pause from the app's GC log. */
data class GcPause(val epochMs: Long, val ms: Double, val kind: String)
