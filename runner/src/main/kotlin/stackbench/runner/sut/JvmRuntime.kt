package stackbench.runner.sut

import stackbench.runner.probe.PerfData
import stackbench.runner.probe.PerfDataFile
import stackbench.runner.results.RuntimeRecord

/**
 * The runtime a JVM the lab started runs, as the JVM names itself in its perf-data file (its java.* properties, its
 * collectors, the flags it was given), beside what the suite's `jdk:` asked for: read once, when the app is ready.
 */
object JvmRuntime {
    /** [app]'s runtime; null when it is not a JVM the lab started. Unknown fields stay null when the file cannot be read. */
    fun read(app: RunningApp): RuntimeRecord? {
        if (!app.sut.capabilities.jvm) return null
        val file = app.pid?.let { PerfData.file(it) }
        val counters = file?.let { f -> runCatching { PerfDataFile.parse(java.nio.file.Files.readAllBytes(f)) }.getOrNull() }
        return record(counters, app.sut.jdk)
    }

    /** The record from [counters] (null: unreadable) and the suite's [jdk] (null: the lab's own JDK). Pure. */
    fun record(counters: Map<String, PerfDataFile.Counter>?, jdk: AppJdk?): RuntimeRecord {
        fun text(name: String) = counters?.get(name)?.text?.takeIf { it.isNotBlank() }
        val collectors = generateSequence(0) { it + 1 }.map { text("sun.gc.collector.$it.name") }.takeWhile { it != null }.filterNotNull().toList()
        val vm = text("java.property.java.vm.name")?.let { name -> text("java.property.java.vm.info")?.let { "$name ($it)" } ?: name }
        return RuntimeRecord(
            requested = jdk?.spec?.id,
            foundBy = jdk?.jdk?.foundBy,
            home = text("java.property.java.home") ?: jdk?.jdk?.home?.toString(),
            version = text("java.property.java.vm.version") ?: jdk?.jdk?.release?.runtimeVersion ?: jdk?.jdk?.release?.version,
            feature = featureOf(text("java.property.java.vm.specification.version")) ?: jdk?.jdk?.release?.feature,
            vendor = text("java.property.java.vm.vendor") ?: jdk?.jdk?.release?.implementor,
            vm = vm,
            gc = text("sun.gc.policy.name"),
            collectors = collectors,
            vmArgs = text("java.rt.vmArgs"),
            fromJvm = counters != null,
        )
    }

    private fun featureOf(spec: String?): Int? = spec?.removePrefix("1.")?.substringBefore('.')?.toIntOrNull()
}
