package stackbench.apps.endpoints.stats

import java.lang.foreign.FunctionDescriptor
import java.lang.foreign.Linker
import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout
import java.lang.invoke.MethodHandle
import java.util.function.LongSupplier

/**
 * The CPU time, in ns, of the OS thread running the caller: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, called through
 * the FFM API. On a platform thread it is the value `ThreadMXBean.getCurrentThreadCpuTime()` reads; on a virtual
 * thread it is its carrier's. About as cheap as the MXBean (one system call; a critical downcall writing straight
 * into a two-long array, no native memory allocated).
 *
 * Linux only (the clock id is Linux's), JDK 22 or newer (the final FFM API and its critical downcalls), and native
 * access allowed (the app jars' manifests say `Enable-Native-Access: ALL-UNNAMED`). Elsewhere [create] answers null.
 */
internal class OsThreadCpu private constructor(private val clockGettime: MethodHandle) : LongSupplier {

    override fun getAsLong(): Long {
        val timespec = LongArray(2) // struct timespec on 64-bit Linux: tv_sec, tv_nsec
        val rc = clockGettime.invokeExact(CLOCK_THREAD_CPUTIME_ID, MemorySegment.ofArray(timespec)) as Int
        return if (rc == 0) timespec[0] * 1_000_000_000L + timespec[1] else ThreadCpuClock.UNAVAILABLE
    }

    companion object {
        private const val CLOCK_THREAD_CPUTIME_ID = 3

        fun create(): LongSupplier? {
            if (Runtime.version().feature() < 22) return null
            if (!System.getProperty("os.name").startsWith("Linux") || System.getProperty("sun.arch.data.model") != "64") return null
            return try {
                val linker = Linker.nativeLinker()
                val symbol = linker.defaultLookup().find("clock_gettime").orElse(null) ?: return null
                val handle = linker.downcallHandle(
                    symbol,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS),
                    Linker.Option.critical(true),
                )
                OsThreadCpu(handle).takeIf { it.asLong >= 0 }
            } catch (e: Throwable) { // no native access (IllegalCallerException), an older FFM API (LinkageError)...
                null
            }
        }
    }
}
