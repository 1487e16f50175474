package stackbench.runner.profiler

import stackbench.runner.suite.ProfilerEngine
import stackbench.runner.suite.ProfilerMode
import stackbench.runner.suite.ProfilerSpec
import java.nio.file.Path

/**
 * Records one app process's measured window: [start] at the window's first request, [stop] at its end, leaving a JFR
 * file (either engine writes one). async-profiler is loaded into the running JVM with `jcmd JVMTI.agent_load` (the
 * app needs no option at start); its CPU mode tries perf events first and falls back to its interval timer where the
 * kernel refuses them, and [Recording.event] says which ran.
 */
class WindowProfiler(private val spec: ProfilerSpec, private val jcmd: Jcmd, private val library: Path?) {

    /** What ran: the engine, its event, and the file it writes. */
    data class Recording(val engine: ProfilerEngine, val event: String, val jfr: Path, val pid: Long)

    val engine: ProfilerEngine = when (spec.engine) {
        ProfilerEngine.AUTO -> if (library != null) ProfilerEngine.ASYNC_PROFILER else ProfilerEngine.JFR
        else -> spec.engine
    }

    /** Starts recording [pid] into [jfr]; throws with jcmd's answer when neither event could start. */
    fun start(pid: Long, jfr: Path): Recording = when (engine) {
        ProfilerEngine.ASYNC_PROFILER -> {
            val lib = requireNotNull(library) { "async-profiler's library is not bundled for this machine: use engine: jfr" }
            val events = when (spec.mode) {
                ProfilerMode.CPU -> listOf("cpu", "itimer")
                ProfilerMode.WALL -> listOf("wall")
                ProfilerMode.ALLOC -> listOf("alloc")
                ProfilerMode.LOCK -> listOf("lock")
            }
            var last: Jcmd.Result? = null
            val event = events.firstOrNull { e ->
                jcmd.run(pid, "JVMTI.agent_load", lib.toString(), "\"start,event=$e,file=$jfr\"").also { last = it }.ok
            } ?: error("async-profiler did not start (event ${events.joinToString(" or ")}): ${last?.output}")
            Recording(engine, event, jfr, pid)
        }
        else -> {
            val r = jcmd.run(pid, "JFR.start", "name=$NAME", "settings=profile", "filename=$jfr")
            check(r.ok) { "JFR did not start: ${r.output}" }
            Recording(ProfilerEngine.JFR, JFR_EVENTS.getValue(spec.mode), jfr, pid)
        }
    }

    /** Stops [recording] and writes its file; throws with jcmd's answer when it did not. */
    fun stop(recording: Recording) {
        val r = when (recording.engine) {
            ProfilerEngine.ASYNC_PROFILER -> jcmd.run(recording.pid, "JVMTI.agent_load", library.toString(), "\"stop,file=${recording.jfr}\"")
            else -> jcmd.run(recording.pid, "JFR.stop", "name=$NAME")
        }
        check(r.ok) { "the profiler did not stop: ${r.output}" }
    }

    companion object {
        const val NAME = "stackbench-window"
        /** The JDK recorder's events for each mode (its `profile` settings). */
        val JFR_EVENTS = mapOf(
            ProfilerMode.CPU to "jdk.ExecutionSample", ProfilerMode.ALLOC to "jdk.ObjectAllocationSample",
            ProfilerMode.LOCK to "jdk.JavaMonitorEnter", ProfilerMode.WALL to "none",
        )
    }
}
