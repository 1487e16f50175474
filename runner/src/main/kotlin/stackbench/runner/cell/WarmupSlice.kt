package stackbench.runner.cell


/** One slice of a warm-up, from the app's own readings at its two ends. */
data class WarmupSlice(
    /** Seconds from the watch's first reading to the slice's end. */
    val endSeconds: Double,
    val seconds: Double,
    val completed: Long,
    /** The JIT compiler threads' CPU time in the slice, ms; null when it could not be read. */
    val compileMs: Double?,
    /** The CPUs the app may use: the slice's CPU is this many CPU-seconds per second. */
    val allottedCpus: Double = 1.0,
    /** The app process's CPU time in the slice (the compiler's included), ms; null when the app does not report it. */
    val processCpuMs: Double? = null,
    /**
     * The time the JIT's compilations took in the slice (CompilationMXBean: from each compilation's start to its end,
     * summed over the compiler threads, time spent waiting for the CPU included), ms; null when the app does not report it.
     */
    val compilingMs: Double? = null,
) {
    val rate: Double get() = if (seconds > 0) completed / seconds else 0.0

    /**
     * Compilation as a share of the slice's CPU: the CPU time the app was allotted in the slice (not the time it used:
     * an app waiting on I/O uses little, and a compiler taking half of that little takes nothing from the requests).
     * Null when the compiler threads could not be read.
     */
    val compileShare: Double? get() = ofAllotted(compileMs)

    /**
     * Compilation as a share of the slice's wall clock: how much of the slice a compilation was under way (summed over
     * the compiler threads). A compiler starved of the CPU by busy request threads takes little CPU ([compileShare])
     * while its compilations take long; null when unknown.
     */
    val compilingShare: Double? get() = if (compilingMs != null && seconds > 0) compilingMs / (seconds * 1000) else null

    /** The app's whole CPU (compiler included) as a share of the CPU allotted in the slice; null when unknown. */
    val cpuShare: Double? get() = ofAllotted(processCpuMs)

    private fun ofAllotted(cpuMs: Double?): Double? = if (cpuMs != null && seconds > 0 && allottedCpus > 0) cpuMs / (seconds * 1000 * allottedCpus) else null

    /**
     * Whether the JIT compiler left the requests alone in this slice: it took at most [WarmupWatch.COMPILE_QUIET] of the
     * allotted CPU, or the app, compiler included, used at most [WarmupWatch.IDLE_CPU] of it, so that the compiler ran
     * on CPU that no request was waiting for (an app waiting on I/O compiles for minutes at a rate its sleeps fix).
     * Unknown compiler time counts as quiet: then throughput alone decides. Without [onIdleCpu] only the first test counts.
     */
    fun compilerQuiet(onIdleCpu: Boolean = true): Boolean = quiet(compileShare, WarmupWatch.COMPILE_QUIET, onIdleCpu)

    /**
     * Whether no compilation held the slice's clock: compilations were under way for at most
     * [WarmupWatch.COMPILING_QUIET] of it, or the app left its CPU idle ([compilerQuiet]'s exception). Unknown counts as quiet.
     */
    fun compilationsQuiet(onIdleCpu: Boolean = true): Boolean = quiet(compilingShare, WarmupWatch.COMPILING_QUIET, onIdleCpu)

    /** [share] unknown or at most [limit], or (with [onIdleCpu]) the app left at least half its CPU idle. */
    private fun quiet(share: Double?, limit: Double, onIdleCpu: Boolean): Boolean =
        share == null || share <= limit || onIdleCpu && cpuShare?.let { it <= WarmupWatch.IDLE_CPU } == true
}
