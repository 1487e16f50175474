package stackbench.runner.suite

/**
 * What a profile of the measured window samples: [CPU] where the CPU ran, [WALL] where threads were (running or
 * waiting), [ALLOC] where memory was allocated, [LOCK] where threads waited for a monitor.
 */
enum class ProfilerMode(val id: String, val meaning: String) {
    CPU("cpu", "on-CPU samples: what the CPU was running"),
    WALL("wall", "wall-clock samples of every thread, running or waiting"),
    ALLOC("alloc", "allocation samples: where memory was allocated"),
    LOCK("lock", "monitor contention: where threads waited for a lock");

    companion object {
        fun of(id: String): ProfilerMode? = entries.firstOrNull { it.id == id }
        val ids: List<String> get() = entries.map { it.id }
    }
}

/**
 * What records the profile: async-profiler's agent (loaded into the app's JVM with `jcmd JVMTI.agent_load` at the
 * window's start, stopped at its end; perf events for CPU where the kernel allows them, else its interval timer), or
 * the JDK's own Flight Recorder (`jcmd JFR.start`/`JFR.stop`; no wall-clock mode). [AUTO]: async-profiler where its
 * library is bundled for this machine, else JFR.
 */
enum class ProfilerEngine(val id: String) {
    AUTO("auto"), ASYNC_PROFILER("async-profiler"), JFR("jfr");

    companion object {
        fun of(id: String): ProfilerEngine? = entries.firstOrNull { it.id == id }
        val ids: List<String> get() = entries.map { it.id }
    }
}

/**
 * A suite's `profiler:` (or `run --profile`): what to sample in every cell's measured window, and with what. With
 * [alternate], only every second window of each app process is profiled (its 2nd, 4th, ...), the others not, so that
 * one process measures what the profile costs against its own unprofiled windows ([stackbench.runner.decide.ProfileOverhead]).
 */
data class ProfilerSpec(val mode: ProfilerMode, val engine: ProfilerEngine = ProfilerEngine.AUTO, val alternate: Boolean = false) {
    /** Whether the [window]-th window (1-based) of a process is profiled. */
    fun profiles(window: Int): Boolean = !alternate || window % 2 == 0

    /** Why this spec cannot run, or null: the JDK's recorder has no wall-clock sampling. */
    fun problem(): String? =
        if (engine == ProfilerEngine.JFR && mode == ProfilerMode.WALL) "JFR has no wall-clock sampling: use engine: async-profiler (or auto)" else null
}

/**
 * An app's own `profiler:`, over the suite's: [Off] (`profiler: none`: this app is not profiled) or [On] (its own mode
 * and engine). An app without the key takes the suite's. Listing one configuration twice, once with a mode and once
 * with `none`, measures what the mode costs (suites/profile-overhead.yaml).
 */
sealed interface AppProfiler {
    data object Off : AppProfiler
    data class On(val spec: ProfilerSpec) : AppProfiler

    companion object {
        /** What profiles [app]'s windows: its own `profiler:`, else the suite's [suite] one; null: none. */
        fun effective(app: AppProfiler?, suite: ProfilerSpec?): ProfilerSpec? = when (app) {
            null -> suite
            Off -> null
            is On -> app.spec
        }
    }
}

/** Reads `profiler:` — a mode (`profiler: cpu`) or `{mode, engine, alternate}`, and on an app also `none` — with file:line:col errors. */
internal object ProfilerReader {
    private const val HINT = "e.g. profiler: cpu, or profiler: {mode: alloc, engine: jfr}, or profiler: {mode: cpu, alternate: true}"
    private const val NONE = "none"

    /** An app's `profiler:`; null when it has none (it takes the suite's). */
    fun readApp(m: stackbench.runner.yaml.YamlMap, problems: stackbench.runner.yaml.Problems): AppProfiler? {
        val node = m.valueNode("profiler") ?: return null
        if (node is org.snakeyaml.engine.v2.nodes.ScalarNode && node.value == NONE) return AppProfiler.Off
        return read(m, problems)?.let { AppProfiler.On(it) }
    }

    fun read(root: stackbench.runner.yaml.YamlMap, problems: stackbench.runner.yaml.Problems): ProfilerSpec? {
        val node = root.valueNode("profiler") ?: return null
        if (node is org.snakeyaml.engine.v2.nodes.ScalarNode) return mode(node.value, node, root.qualify("profiler"), problems)?.let { ProfilerSpec(it) }
        val m = root.map("profiler") ?: return null
        val mode = m.requiredString("mode", HINT)?.let { mode(it, m.valueNode("mode"), m.qualify("mode"), problems) }
        val engine = m.scalar("engine")?.let { e ->
            ProfilerEngine.of(e.value) ?: null.also { problems.at(e, m.qualify("engine"), "'${e.value}' is not an engine", "one of ${ProfilerEngine.ids.joinToString()}") }
        } ?: ProfilerEngine.AUTO
        val alternate = m.boolean("alternate") ?: false
        m.finish()
        val spec = mode?.let { ProfilerSpec(it, engine, alternate) } ?: return null
        spec.problem()?.let { problems.at(m.valueNode("engine"), m.qualify("engine"), it) }
        return spec
    }

    private fun mode(value: String, node: org.snakeyaml.engine.v2.nodes.Node?, key: String, problems: stackbench.runner.yaml.Problems): ProfilerMode? =
        ProfilerMode.of(value) ?: null.also { problems.at(node, key, "'$value' is not a profiler mode", "one of ${ProfilerMode.ids.joinToString()}; $HINT") }
}
