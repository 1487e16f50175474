package stackbench.runner.profiler

import stackbench.runner.suite.ProfilerEngine
import stackbench.runner.suite.ProfilerMode
import stackbench.runner.suite.ProfilerSpec
import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.results.ProbeRecord
import tools.jackson.databind.ObjectMapper
import java.nio.file.Files
import java.nio.file.Path

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
            val summary = ProfileSummary.of(spec.mode, r, stacks, perRequest)
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

/** A window's profile in short: what recorded it, how many samples, and its top frames. */
data class ProfileSummary(
    val mode: String,
    val engine: String,
    val event: String,
    val samples: Long,
    /** The app's CPU ms per answer over the window, which a frame's share multiplies into its own; null when not a CPU profile or unknown. */
    val cpuMsPerRequest: Double?,
    val topSelf: List<Frame>,
    val topTotal: List<Frame>,
) {
    data class Frame(val frame: String, val samples: Long, val share: Double, val msPerRequest: Double?)

    companion object {
        fun of(mode: ProfilerMode, r: WindowProfiler.Recording, stacks: CollapsedStacks, cpuMsPerRequest: Double?): ProfileSummary {
            fun frames(list: List<FrameShare>) = list.map { Frame(it.frame, it.samples, it.share, cpuMsPerRequest?.let { c -> c * it.share }) }
            return ProfileSummary(mode.id, r.engine.id, r.event, stacks.total, cpuMsPerRequest,
                frames(stacks.topSelf(ProfilerProbe.TOP)), frames(stacks.topTotal(ProfilerProbe.TOP)))
        }
    }
}
