package stackbench.runner.probes

import java.nio.file.Files
import java.nio.file.Path
import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.profiler.AsyncProfilerLibrary
import stackbench.runner.profiler.CollapsedStacks
import stackbench.runner.profiler.FlameConverter
import stackbench.runner.profiler.ProfileSummary
import stackbench.runner.profiler.Jcmd
import stackbench.runner.profiler.WindowProfiler
import stackbench.runner.results.ProbeRecord
import stackbench.runner.suite.ProfilerEngine
import stackbench.runner.suite.ProfilerMode
import stackbench.runner.suite.ProfilerSpec
import tools.jackson.databind.ObjectMapper

/**
 * A profile of the measured window ([ProfilerSpec]): recorded from the window's first request to its end
 * ([WindowProfiler]), converted to collapsed stacks and an HTML flame graph in the cell's folder, and summed up as the
 * top frames by self and total time, each with its share and, for a CPU profile, its CPU ms per request.
 */
class ProfilerProbe(
    private val spec: ProfilerSpec,
    java: Path,
    library: Path?,
    private val json: ObjectMapper,
    /** The apps whose windows this spec profiles (an app's own `profiler:` may differ from the suite's); null: every app. */
    private val apps: Set<String>? = null,
) : WindowProbe {
    override val name = "profile"

    /**
     * One probe for each profiler spec in use (the suite's `profiler:`, or `run --profile`, and any app's own), each
     * for the apps it profiles; async-profiler's library is unpacked into `.tools/lib` only when one is.
     */
    object Kind : ProbeKind {
        override fun probes(run: ProbeContext): List<WindowProbe> {
            val suite = run.suite
            val bySpec = suite.apps.mapNotNull { app -> suite.profilerOf(app)?.let { it to app.name } }.groupBy({ it.first }, { it.second })
            if (bySpec.isEmpty()) return emptyList()
            val library = AsyncProfilerLibrary.extract(run.home.resolve(".tools/lib"))
            return bySpec.map { (spec, apps) -> ProfilerProbe(spec, run.java, library, run.json, apps.toSet()) }
        }
    }
    private val profiler = WindowProfiler(spec, Jcmd.beside(java), library)
    private val converter = FlameConverter(java)
    private var recording: WindowProfiler.Recording? = null
    private var startFailure: String? = null

    /** Its apps' windows; with `alternate`, only every second window of a process (the others measure the app unprofiled). */
    override fun applies(target: ProbeTarget): Boolean = (apps == null || target.app in apps) && spec.profiles(target.window)

    override fun unavailable(target: ProbeTarget): String? = when {
        target.pid == null -> "no process the lab started: nothing to profile"
        !target.jvm -> "not a JVM the lab started: no profile"
        else -> null
    }

    override fun windowStarted(target: ProbeTarget) {
        recording = null
        startFailure = null
        try {
            recording = profiler.start(target.pid!!, target.dir.resolve(JFR))
        } catch (e: Exception) {
            startFailure = e.message
        }
    }

    override fun windowEnded(target: ProbeTarget, window: WindowFacts): ProbeRecord {
        val r = recording ?: return ProbeRecord(notes = listOf("the profiler did not start: $startFailure"))
        return try {
            profiler.stop(r)
            converter.collapsed(r.jfr, spec.mode, r.engine, target.dir.resolve(COLLAPSED))
            converter.html(r.jfr, spec.mode, r.engine, "${target.cellKey}: ${spec.mode.id} (${r.engine.id}, ${r.event})", target.dir.resolve(HTML))
            val stacks = CollapsedStacks.parse(Files.readString(target.dir.resolve(COLLAPSED)), COLLAPSED)
            val perRequest = window.cpuMsPerRequest.takeIf { spec.mode == ProfilerMode.CPU }
            val summary = ProfileSummary.of(spec.mode, r, stacks, perRequest, TOP)
            ProbeRecord(
                figures = mapOf("samples" to stacks.total.toDouble(), "topSelfShare" to summary.topSelf.firstOrNull()?.share),
                files = mapOf("jfr" to target.file(JFR), "collapsed" to target.file(COLLAPSED), "flameGraph" to target.file(HTML)),
                notes = listOfNotNull("no samples in the window".takeIf { stacks.total == 0L }),
                details = json.valueToTree(summary),
            )
        } catch (e: Exception) {
            ProbeRecord(notes = listOf("the profile could not be finished: ${e.message}"))
        }
    }

    companion object {
        const val JFR = "profile.jfr"
        const val COLLAPSED = "profile.collapsed"
        const val HTML = "profile.html"
        const val TOP = 15
    }
}
