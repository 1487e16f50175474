package stackbench.apps.endpoints.stats

import java.lang.management.ClassLoadingMXBean
import java.lang.management.CompilationMXBean
import java.lang.management.GarbageCollectorMXBean
import java.lang.management.ManagementFactory

/** The JVM's own signals for the stats side channel, read from its platform MXBeans at each call. */
object JvmSignals {
    private val os: com.sun.management.OperatingSystemMXBean? =
        ManagementFactory.getOperatingSystemMXBean() as? com.sun.management.OperatingSystemMXBean
    private val compilation: CompilationMXBean? =
        ManagementFactory.getCompilationMXBean()?.takeIf { it.isCompilationTimeMonitoringSupported }
    private val collectors: List<GarbageCollectorMXBean> = ManagementFactory.getGarbageCollectorMXBeans()
    private val classes: ClassLoadingMXBean = ManagementFactory.getClassLoadingMXBean()

    /** The process's CPU time in ns, or null where unsupported (the MXBean answers -1). */
    fun processCpuNanos(): Long? = os?.processCpuTime?.takeIf { it >= 0 }

    /** The JIT compilers' accumulated compilation time in ms, or null without a JIT or its time monitoring. */
    fun compilationMillis(): Long? = compilation?.totalCompilationTime?.takeIf { it >= 0 }

    /** Accumulated collection time in ms over every collector, those answering -1 (undefined) left out. */
    fun gcMillis(): Long = collectors.sumOf { it.collectionTime.coerceAtLeast(0) }

    /** Collections so far over every collector, those answering -1 (undefined) left out. */
    fun gcCount(): Long = collectors.sumOf { it.collectionCount.coerceAtLeast(0) }

    fun loadedClasses(): Int = classes.loadedClassCount

    /**
     * `getTotalThreadAllocatedBytes` of the platform's ThreadMXBean (`com.sun.management`, HotSpot's, JDK 14 on), found
     * by reflection: a JVM without it answers no figure rather than failing to load this class.
     */
    private val totalAllocated: (() -> Long)? = runCatching {
        val bean = ManagementFactory.getThreadMXBean()
        val method = Class.forName("com.sun.management.ThreadMXBean").getMethod("getTotalThreadAllocatedBytes")
        val f: () -> Long = { method.invoke(bean) as Long }
        f.takeIf { f() >= 0 }
    }.getOrNull()

    /** Heap bytes allocated by every thread since the JVM started; null on a JVM before 21 or one that does not measure it (-1). */
    fun allocatedBytes(): Long? = totalAllocated?.let { read -> runCatching { read() }.getOrNull()?.takeIf { it >= 0 } }
}
