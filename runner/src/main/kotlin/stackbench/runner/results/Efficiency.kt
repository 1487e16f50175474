package stackbench.runner.results

/**
 * What a window's throughput cost the app: requests per CPU-second it used, and requests a second per MiB of its peak
 * resident memory (the density a memory-bound deployment is sized by). Null where the window measured no throughput,
 * or the lab read no CPU or memory of the app (a `url:` app). Pure.
 */
object Efficiency {
    private const val MIB = 1024.0 * 1024.0

    /** The CPUs the app was allotted: its quota, its CPU set, the smaller of the two, else every CPU its JVM was told of. */
    fun allottedCpus(p: ProfileRecord): Double =
        listOfNotNull(p.cpus, p.cpuset.size.takeIf { it > 0 }?.toDouble()).minOrNull() ?: p.activeProcessorCount.toDouble()

    /** Requests per CPU-second of the app: its throughput over the CPU it used a second (its share of its allotment × the CPUs allotted). */
    fun perCpuSecond(c: CellResult): Double? {
        val throughput = c.window.measured?.throughput?.takeUnless { it.isNaN() } ?: return null
        val cpuSeconds = (c.resources.summary?.cpuShare ?: return null) * allottedCpus(c.profile)
        return if (cpuSeconds > 0) throughput / cpuSeconds else null
    }

    /** Requests a second per MiB of the app's peak resident memory over the window. */
    fun perMib(c: CellResult): Double? {
        val throughput = c.window.measured?.throughput?.takeUnless { it.isNaN() } ?: return null
        val mib = (c.resources.summary?.rssMaxBytes ?: return null) / MIB
        return if (mib > 0) throughput / mib else null
    }
}
