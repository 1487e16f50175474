package stackbench.apps.endpoints.stats

import java.lang.management.ManagementFactory
import java.lang.management.ThreadMXBean
import java.util.function.LongSupplier

/** Reads the CPU time, in ns, of the thread running the caller; [UNAVAILABLE] when it cannot. */
interface ThreadCpuClock {
    /** For a stretch of work that cannot leave its OS thread: it neither blocks nor suspends. */
    fun running(): Long

    /** For a stretch of work that may block the calling thread (a sleep, blocking I/O, a wait for a permit). */
    fun waiting(): Long

    companion object {
        const val UNAVAILABLE = -1L
    }
}

/**
 * The JVM's thread CPU clock, as [WorkCounters] reads it.
 *
 * - Platform threads: `ThreadMXBean.getCurrentThreadCpuTime()` (thread CPU time is enabled here if the JVM supports it
 *   and it is off).
 * - Virtual threads: `getCurrentThreadCpuTime()` answers -1 for them (JDK 21 to 25: "the total CPU time for the current
 *   thread if the current thread is a platform thread ... -1 otherwise"; `sun.management.ThreadImpl` checks
 *   `isVirtual()`), and no public API names a virtual thread's carrier. A virtual thread runs on its carrier's OS
 *   thread, so over a stretch in which it cannot unmount (no blocking, no suspension: JDK 25 does not preempt virtual
 *   threads) the carrier's CPU time is the virtual thread's: [running] reads it from the OS ([OsThreadCpu], Linux,
 *   JDK 22+). Across a wait the virtual thread leaves its carrier, which runs other virtual threads meanwhile, so
 *   [waiting] answers [ThreadCpuClock.UNAVAILABLE] there: the wait is counted, not measured.
 */
object JvmThreadCpu : ThreadCpuClock {
    private val threads: ThreadMXBean = ManagementFactory.getThreadMXBean()

    /** Whether platform threads' CPU time can be read. */
    val platform: Boolean = enable(threads)

    /** The OS clock of the carrier, or null where it is not available (not Linux, JDK 21, no native access). */
    private val carrier: LongSupplier? = OsThreadCpu.create()

    /** Whether a virtual thread's work that stays on its carrier can be measured. */
    val virtual: Boolean get() = carrier != null

    /** Whether the JVM has virtual threads: `Thread.isVirtual` exists from JDK 21 on, and the Boot 3.5 apps also run on JDK 17. */
    private val hasVirtualThreads: Boolean = Runtime.version().feature() >= 21

    override fun running(): Long =
        if (hasVirtualThreads && Thread.currentThread().isVirtual) carrier?.asLong ?: ThreadCpuClock.UNAVAILABLE else platformNow()

    override fun waiting(): Long =
        if (hasVirtualThreads && Thread.currentThread().isVirtual) ThreadCpuClock.UNAVAILABLE else platformNow()

    private fun platformNow(): Long = if (platform) threads.currentThreadCpuTime else ThreadCpuClock.UNAVAILABLE

    private fun enable(threads: ThreadMXBean): Boolean {
        if (!threads.isCurrentThreadCpuTimeSupported) return false
        if (!threads.isThreadCpuTimeEnabled) {
            runCatching { threads.isThreadCpuTimeEnabled = true }
        }
        return threads.isThreadCpuTimeEnabled
    }
}
