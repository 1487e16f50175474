package stackbench.runner.sut

import stackbench.runner.plan.Cell
import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.AppSource
import stackbench.runner.suite.Readiness
import java.net.URI
import java.nio.file.Path

/**
 * What the lab may ask of a system under test beyond starting it, waiting until it is ready and stopping it. A step
 * that needs one asks here, and records "unknown" (never a guess) when the app does not offer it.
 */
data class Capabilities(
    /**
     * A process the lab starts and stops: placed on its CPUs, confined (cgroup or taskset), its log kept, and sampled
     * from /proc and its cgroup (CPU, memory, threads, context switches, throttling, open connections). Without it (a
     * service already running elsewhere) the lab can neither isolate nor sample it: those figures are unknown, and
     * the cells say so (flag `not-isolated`).
     */
    val process: Boolean,
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
) {
    init {
        require(process || !jvm && !statsChannel) { "a JVM's signals and a stats channel are read from a process the lab started" }
    }

    /** Each capability in the words results use (`sut.offers`, `sut.lacks`), and whether it is offered. */
    val named: List<Pair<String, Boolean>>
        get() = listOf(
            "process" to process, "stats channel" to statsChannel, "/info" to info, "start-up line" to startLine,
            "priming endpoint" to primeEndpoint, "JVM signals" to jvm,
        )
}

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
    /** The run's database, when the suite has one: a built-in app gets its Spring properties, an own app its `{db.*}` placeholders. */
    val database: stackbench.runner.database.DatabaseEndpoint? = null,
) {
    /** What `{db.*}` becomes in an own app's args and env: nothing without a database. */
    val placeholders: Map<String, String> get() = database?.placeholders() ?: emptyMap()
}

/**
 * The seam between the lab and what it measures: a built-in Spring app ([BuiltinApp]), a team's JVM jar ([OwnJar]),
 * any command ([OwnCommand]), a service already running at a URL ([OwnUrl]). Adding a kind of system under test means
 * one more implementation here and its suite key.
 */
interface SystemUnderTest {
    /** How results name it: a stack's label, `jar`, `command` or `url`. */
    val kind: String
    val capabilities: Capabilities
    val readiness: Readiness

    /**
     * What is wrong before anything starts (a jar missing or not a jar, a command not found, a URL that does not
     * answer within its readiness timeout), or null.
     */
    fun problem(): String?

    /** The command line that starts it; empty for one the lab does not start ([runningAt]). */
    fun command(ctx: LaunchContext): List<String>

    /**
     * Where it already answers, for a system the lab does not start ([Capabilities.process] false): each request goes
     * to this URL followed by the request's path. Null for one the lab starts: it answers where [command] tells it to.
     */
    val runningAt: URI? get() = null

    /** Environment variables for its process, besides the lab's. */
    fun environment(ctx: LaunchContext): Map<String, String> = emptyMap()

    /** The JDK its `jdk:` names, for an app the lab starts with java; null: the lab's own JDK, or not a JVM the lab starts. */
    val jdk: AppJdk? get() = null

    companion object {
        /** The system under test of [app]; own apps' relative paths resolve against [home] (the suite has made them relative to its folder). */
        fun of(app: AppConfig, home: Path, fastStart: Boolean = false, installedJdks: () -> List<stackbench.runner.jdk.Jdk> = { AppJdk.installed(home) }): SystemUnderTest =
            when (val s = app.source) {
                is AppSource.Builtin -> BuiltinApp(s.stack, home, fastStart, app, AppJdk.of(app, installedJdks))
                is AppSource.Jar -> OwnJar(s, app, home, AppJdk.of(app, installedJdks))
                is AppSource.Command -> OwnCommand(s, app, home)
                is AppSource.Url -> OwnUrl(s, app)
            }
    }
}
