package stackbench.runner.probe

import java.io.IOException
import java.nio.file.Files
import java.nio.file.Path

/**
 * A HotSpot JVM's own JIT, GC and class-loading counters, read from outside through its performance-data file (see
 * [PerfDataFile]): signals for any JVM the lab starts, with no code in the app. Every field is null when the JVM does
 * not publish that counter: unknown, never 0. Times are milliseconds, converted from the JVM's ticks
 * (`sun.os.hrt.frequency` per second). All but the uptime are counts since the JVM started: a window's figure is
 * the difference of two reads.
 */
data class JvmCounters(
    val uptimeMs: Double?,
    /** sun.ci.totalCompiles: standard and OSR compilations, by C1 and C2 together (HotSpot publishes no split). */
    val jitCompilations: Long?,
    /** sun.ci.osrCompiles */
    val jitOsrCompilations: Long?,
    /** sun.ci.totalBailouts */
    val jitFailed: Long?,
    /** sun.ci.totalInvalidates */
    val jitInvalidated: Long?,
    /** java.ci.totalTime: the compilers' elapsed time, which includes their waits for a CPU (see [CompilerThreads]). */
    val jitTimeMs: Double?,
    /** sun.gc.collector.N.invocations summed, as jstat's GCT sums them */
    val gcCollections: Long?,
    val gcTimeMs: Double?,
    val collectors: List<Collector>,
    /** sun.threads.total_gc_cpu_time (new in recent JDKs, present in 25): the GC threads' CPU, concurrent work included. */
    val gcCpuMs: Double?,
    /** java.cls.loadedClasses */
    val classesLoaded: Long?,
    /** java.cls.unloadedClasses */
    val classesUnloaded: Long?,
    /** sun.rt.safepoints */
    val safepoints: Long?,
    /** sun.rt.safepointTime: time at safepoints, sync excluded (sun.rt.safepointSyncTime) */
    val safepointTimeMs: Double?,
) {
    /** One collector of the JVM's GC: G1 has "G1 young collection pauses", "G1 full collection pauses", "G1 concurrent cycle pauses". */
    data class Collector(val name: String?, val invocations: Long?, val timeMs: Double?)
}

/** Where a JVM's counters live, and reading them. */
object PerfData {

    /** A read: the counters, or why there are none (the caller records "unknown"). */
    sealed interface Reading {
        data class Counters(val counters: JvmCounters) : Reading
        data class Unknown(val why: String) : Reading
    }

    /** The counters, or null when they cannot be read: see [read] for why. */
    fun counters(pid: Long): JvmCounters? = (read(pid) as? Reading.Counters)?.counters

    /**
     * Reads the JVM [pid]'s counters. Unknown when the process is gone, is not a HotSpot JVM, runs with
     * `-XX:-UsePerfData` or `-XX:+PerfDisableSharedMem` (no file), is still starting, or the file is not one [PerfDataFile] knows.
     */
    fun read(pid: Long): Reading {
        val file = file(pid) ?: return Reading.Unknown("no perf-data file for process $pid (gone, not HotSpot, or -XX:-UsePerfData)")
        return readFile(file)
    }

    fun readFile(file: Path): Reading {
        val bytes = try {
            // one read: the JVM keeps writing its map, and this copy is the snapshot
            Files.readAllBytes(file)
        } catch (e: IOException) {
            return Reading.Unknown("$file cannot be read: $e")
        }
        return try {
            Reading.Counters(counters(PerfDataFile.parse(bytes), System.currentTimeMillis()))
        } catch (e: PerfDataFile.FormatException) {
            Reading.Unknown("$file is not a readable perf-data file: ${e.message}")
        }
    }

    /**
     * The JVM writes `hsperfdata_<user>/<pid>` under /tmp (on Linux HotSpot ignores -Djava.io.tmpdir for it), as the
     * user it runs as, and with the pid it sees: in another pid namespace (a container) that differs from ours, and its
     * /tmp may be its own. /proc/<pid>/root/tmp with the NSpid's last field covers both, as the JDK's own tools do; it
     * needs the right to read the process's root (same user, or root), so plain /tmp is the fallback.
     */
    fun file(pid: Long): Path? {
        val proc = Path.of("/proc/$pid")
        val user = try {
            Files.getOwner(proc).name
        } catch (_: IOException) {
            return null
        }
        val nsPid = try {
            Files.readAllLines(proc.resolve("status")).firstOrNull { it.startsWith("NSpid:") }?.trim()?.split(Regex("\\s+"))?.last()
        } catch (_: IOException) {
            null
        } ?: pid.toString()
        return listOf(proc.resolve("root/tmp/hsperfdata_$user/$nsPid"), Path.of("/tmp/hsperfdata_$user/$pid"))
            .firstOrNull(::readable) ?: anyUser(proc.resolve("root/tmp"), nsPid)
    }

    private fun readable(path: Path) = runCatching { Files.isRegularFile(path) && Files.isReadable(path) }.getOrDefault(false)

    /** A container's /etc/passwd may name the uid otherwise than ours; pids are unique within its /tmp's namespace. */
    private fun anyUser(tmp: Path, nsPid: String): Path? = runCatching {
        Files.newDirectoryStream(tmp, "hsperfdata_*").use { dirs -> dirs.map { it.resolve(nsPid) }.firstOrNull(::readable) }
    }.getOrNull()

    /** [counters] by name from [PerfDataFile.parse]; [nowMs] the wall clock, for the uptime. */
    fun counters(counters: Map<String, PerfDataFile.Counter>, nowMs: Long): JvmCounters {
        val frequency = counters["sun.os.hrt.frequency"]?.value?.takeIf { it > 0 }
        fun long(name: String) = counters[name]?.value
        fun ms(name: String): Double? {
            val c = counters[name] ?: return null
            val v = c.value ?: return null
            // every time used here is in ticks (sun.threads.*'s CPU times too, though HotSpot counts them in ns):
            // a time in another unit would be a layout this reader does not know
            return if (c.units == PerfDataFile.UNITS_TICKS) frequency?.let { v * 1000.0 / it } else null
        }
        val collectors = generateSequence(0) { it + 1 }
            .takeWhile { "sun.gc.collector.$it.invocations" in counters || "sun.gc.collector.$it.name" in counters }
            .map { JvmCounters.Collector(counters["sun.gc.collector.$it.name"]?.text, long("sun.gc.collector.$it.invocations"), ms("sun.gc.collector.$it.time")) }
            .toList()
        // sun.os.hrt.ticks (ticks since the JVM started) is gone from JDK 25's file; its start time (epoch ms) remains
        val uptime = ms("sun.os.hrt.ticks") ?: long("sun.rt.createVmBeginTime")?.let { (nowMs - it).toDouble() }
        return JvmCounters(
            uptimeMs = uptime,
            jitCompilations = long("sun.ci.totalCompiles"),
            jitOsrCompilations = long("sun.ci.osrCompiles"),
            jitFailed = long("sun.ci.totalBailouts"),
            jitInvalidated = long("sun.ci.totalInvalidates"),
            jitTimeMs = ms("java.ci.totalTime"),
            gcCollections = collectors.takeIf { it.isNotEmpty() && it.all { c -> c.invocations != null } }?.sumOf { it.invocations!! },
            gcTimeMs = collectors.takeIf { it.isNotEmpty() && it.all { c -> c.timeMs != null } }?.sumOf { it.timeMs!! },
            collectors = collectors,
            gcCpuMs = ms("sun.threads.total_gc_cpu_time"),
            classesLoaded = long("java.cls.loadedClasses"),
            classesUnloaded = long("java.cls.unloadedClasses"),
            safepoints = long("sun.rt.safepoints"),
            safepointTimeMs = ms("sun.rt.safepointTime"),
        )
    }
}
