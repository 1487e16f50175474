package stackbench.runner.sut

import stackbench.runner.plan.Cell
import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.AppSource
import stackbench.runner.suite.Readiness
import java.nio.file.Path

/**
 * What the lab may ask of a system under test beyond starting it, waiting until it is ready and stopping it. A step
 * that needs one asks here, and records "unknown" (never a guess) when the app does not offer it.
 */
data class Capabilities(
    /** The built-in apps' stats channel: an in-app request counter, open connections, the handlers' own work. */
    val statsChannel: Boolean,
    /** `GET /info`: the servers and pools the app runs, which the ceilings' Little's law counts. */
    val info: Boolean,
    /** Spring Boot's "Started ... in X seconds" line in the app's log. */
    val startLine: Boolean,
    /** `/noop`, the cheapest answer, which priming drives before a new process's first cell. */
    val primeEndpoint: Boolean,
    /** A HotSpot JVM the lab starts: its compiler threads in /proc, its GC log, its performance-data counters. */
    val jvm: Boolean,
)

/** What the lab decided for one start of an app: where it listens, what it may use, where its files go. */
data class LaunchContext(
    val cell: Cell,
    val java: Path,
    val home: Path,
    val machineCpus: Int,
    val address: String,
    val ports: AppPorts,
    val downstreamUrl: String?,
    val gcLog: Path,
)

/**
 * The seam between the lab and what it measures: a built-in Spring app ([BuiltinApp]), a team's JVM jar ([OwnJar]),
 * any command ([OwnCommand]). Adding a kind of system under test means one more implementation here and its suite key.
 */
interface SystemUnderTest {
    /** How results name it: a stack's label, `jar` or `command`. */
    val kind: String
    val capabilities: Capabilities
    val readiness: Readiness

    /** What is wrong before anything starts (a jar missing or not a jar, a command not found), or null. */
    fun problem(): String?

    /** The command line that starts it. */
    fun command(ctx: LaunchContext): List<String>

    /** Environment variables for its process, besides the lab's. */
    fun environment(ctx: LaunchContext): Map<String, String> = emptyMap()

    companion object {
        /** The system under test of [app]; own apps' relative paths resolve against [home] (the suite has made them relative to its folder). */
        fun of(app: AppConfig, home: Path, fastStart: Boolean = false): SystemUnderTest = when (val s = app.source) {
            is AppSource.Builtin -> BuiltinApp(s.stack, home, fastStart)
            is AppSource.Jar -> OwnJar(s, app, home)
            is AppSource.Command -> OwnCommand(s, app, home)
        }
    }
}
