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
}
