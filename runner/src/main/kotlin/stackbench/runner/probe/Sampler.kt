package stackbench.runner.probe

import stackbench.runner.isolation.CgroupCounters
import stackbench.runner.results.Sample
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList

/** The raw reading the sampler records, before it is placed against the measured window. */
data class RawSample(
    val epochMs: Long,
    val process: ProcessReading?,
    val voluntaryCtx: Long?,
    val involuntaryCtx: Long?,
    val cgroup: CgroupCounters?,
    val server: ServerCount?,
    val driverCpuMs: Double?,
)

/**
 * Reads the app process, its cgroup, its stats channel and the load driver's CPU several times a second,
 * on its own thread, each reading timestamped. [stop] returns everything read.
 */
class Sampler(
    private val proc: ProcReader?,
    private val cgroup: () -> CgroupCounters?,
    private val stats: StatsChannel?,
    private val driverCpuMs: () -> Double?,
    private val interval: Duration = Duration.ofMillis(250),
) {
    private val samples = CopyOnWriteArrayList<RawSample>()
    private val switches = ThreadSwitches()
    @Volatile private var running = false
    private var thread: Thread? = null
    /** CPU time this sampler's thread used, for its own cost. */
    @Volatile var ownCpuNanos: Long = 0
        private set

    fun start() {
        running = true
        thread = Thread({ loop() }, "stackbench-sampler").apply { isDaemon = true; start() }
    }

    /** One reading now, on the caller's thread (also used for the window's first and last readings). */
    fun sampleNow() {
        val reading = proc?.read()
        val ctx = reading?.let { synchronized(switches) { switches.update(it.perThreadSwitches); switches.voluntary to switches.involuntary } }
        samples += RawSample(
            System.currentTimeMillis(), reading, ctx?.first, ctx?.second,
            runCatching { cgroup() }.getOrNull(), stats?.read(), runCatching { driverCpuMs() }.getOrNull(),
        )
    }

    private fun loop() {
        val bean = java.lang.management.ManagementFactory.getThreadMXBean()
        var next = System.nanoTime()
        while (running) {
            sampleNow()
            ownCpuNanos = bean.currentThreadCpuTime
            next += interval.toNanos()
            val sleep = next - System.nanoTime()
            if (sleep <= 0) {
                next = System.nanoTime()
                continue
            }
            try {
                Thread.sleep(sleep / 1_000_000, (sleep % 1_000_000).toInt())
            } catch (e: InterruptedException) {
                return
            }
        }
    }

    /** Completed exchanges per second between the app's last two counter readings, for live progress. */
    fun liveServerRate(): Double? {
        val points = samples.mapNotNull { it.server }.takeLast(2)
        if (points.size < 2 || points[1].epochMs <= points[0].epochMs) return null
        return (points[1].completed - points[0].completed) * 1000.0 / (points[1].epochMs - points[0].epochMs)
    }

    fun stop(): List<RawSample> {
        running = false
        thread?.interrupt()
        thread?.join(2_000)
        return samples.toList().sortedBy { it.epochMs }
    }

    companion object {
        /** Places raw readings on the measured window's clock (t = 0 at its start). */
        fun toSamples(raw: List<RawSample>, windowStartEpochMs: Long): List<Sample> = raw.map { r ->
            Sample(
                tMs = r.epochMs - windowStartEpochMs,
                epochMs = r.epochMs,
                cpuMs = r.process?.cpuMs,
                rssBytes = r.process?.rssBytes,
                threads = r.process?.threads,
                voluntaryCtx = r.voluntaryCtx,
                involuntaryCtx = r.involuntaryCtx,
                cgroupCpuMs = r.cgroup?.cpuUsageNs?.let { it / 1e6 },
                throttledPeriods = r.cgroup?.throttledPeriods,
                throttledMs = r.cgroup?.throttledNs?.let { it / 1e6 },
                serverCompleted = r.server?.completed,
                serverEpochMs = r.server?.epochMs,
                driverCpuMs = r.driverCpuMs,
            )
        }
    }
}
