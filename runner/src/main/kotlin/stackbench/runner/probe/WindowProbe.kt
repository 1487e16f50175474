package stackbench.runner.probe

import stackbench.runner.results.ProbeRecord
import java.nio.file.Path

/**
 * The measurement seam, as JMH's profilers: a probe acts at the measured window's edges and returns named figures and
 * files that land in the cell's record under its own [name] (`probes.<name>` in results.json). A probe never fails a
 * cell: what it could not do is a note in its record. To add one: a file in `probes/` that implements this and declares
 * its `object Kind : ProbeKind` (the run finds every kind; `cell/WindowProbes` asks each probe whether it can measure
 * the cell's app), and, to show its record, a `report/ProbeSection` of its own.
 */
interface WindowProbe {
    /** The key its record lands under. */
    val name: String

    /** Whether it has anything to say of [target] at all; one that does not apply records nothing (e.g. pinned carriers of an app without virtual threads). */
    fun applies(target: ProbeTarget): Boolean = true

    /** Why it cannot measure [target] though it applies (e.g. not a JVM), or null when it can. Asked before the window. */
    fun unavailable(target: ProbeTarget): String? = null

    /** At the warm-up's start (a cell without a warm-up goes straight to [windowStarted]): a probe whose own start costs the app something starts here. */
    fun warmupStarted(target: ProbeTarget) {}

    /** At the window's first request. */
    fun windowStarted(target: ProbeTarget) {}

    /** At the window's end, with what the window measured. */
    fun windowEnded(target: ProbeTarget, window: WindowFacts): ProbeRecord
}

/**
 * The app a probe measures: its process (null when the lab started none), whether it is a HotSpot JVM, the cell's
 * folder for its files ([dir]) and the run's ([runDir]: a record names its files relative to it, [file]), and whether
 * its requests run on virtual threads (a built-in app's switch; false where unknown), and its stats side channel if it has one.
 */
data class ProbeTarget(
    val pid: Long?, val jvm: Boolean, val dir: Path, val runDir: Path, val cellKey: String, val virtualThreads: Boolean = false,
    /** The app's stats side channel (the built-in apps'); null for an app without one. */
    val statsUrl: java.net.URI? = null,
    /** The app configuration's name in the suite (a probe may apply to some apps only). */
    val app: String = "",
    /** The CPU time so far of the relay in front of the app's HTTP port (a namespace host's emulated round trip), ms; null without one. */
    val relayCpuMs: (() -> Double?)? = null,
    /** The window's place in its app process, 1-based (a cell's [stackbench.runner.plan.Cell.window]). */
    val window: Int = 1,
) {
    fun file(name: String): String = runDir.relativize(dir.resolve(name)).toString()
}

/** What the window measured, for figures per request: its answers, and the app's CPU per answer where known. */
data class WindowFacts(val responses: Long, val cpuMsPerRequest: Double?)
