package stackbench.runner.suite

import stackbench.contract.CpuStrategy
import stackbench.contract.DownstreamClient
import stackbench.contract.IoStrategy
import stackbench.runner.catalog.LoadModelKind
import stackbench.runner.catalog.Stack
import java.time.Duration

/** What a suite file asks for, validated; [SuiteParser] makes it, [stackbench.runner.plan.Planner] expands it. */
data class Suite(
    val name: String,
    val description: String,
    /** Where it was read from, as given. */
    val source: String,
    val apps: List<AppConfig>,
    val profile: ResourceProfile,
    val endpoints: List<EndpointSpec>,
    val load: LoadSpec,
    val repetitions: Int,
    val downstream: DownstreamConfig,
    val restart: Restart = Restart.CELL,
    /** The comparisons the suite asks to decide (`compare:`); `run --until-decided` repeats cells until they are. */
    val comparisons: List<SuiteComparison> = emptyList(),
    /** `until-decided`: the budget for extra rounds of the undecided comparisons' cells (`run --until-decided` overrides it). */
    val untilDecided: java.time.Duration? = null,
    /** The hosts (`hosts:`) and which runs each role (`placement:`); everything on this machine by default. */
    val hosts: HostsSpec = HostsSpec.LOCAL,
    /**
     * The configurations (cells' configuration keys, e.g. `tomcat/cpu-direct-limit50000/c400`) the plan keeps; null:
     * every one. Not a suite key: `findings-run` narrows a suite to the cells its claims need ([focused]), and the
     * results record it, so that `--resume` plans the same cells.
     */
    val only: Set<String>? = null,
    /** `profiler:` (or `run --profile`): a profile of every cell's measured window; null: none. */
    val profiler: ProfilerSpec? = null,
    /**
     * `processes`: how many separate app processes (JVMs) each configuration runs in, its [repetitions] windows
     * nested in each (with `restart: app`); with `restart: cell` every window is a process of its own anyway.
     */
    val processes: Int = Defaults.PROCESSES,
    /** The environment variables the suite's values name (`${'$'}{env:NAME}`, [Secrets]): used, never written. */
    val secrets: List<String> = emptyList(),
    /** `database:`: the PostgreSQL server the lab starts beside the apps for the run; null: none. */
    val database: DatabaseSpec? = null,
) {
    /** This suite narrowed to the configurations [configs], deciding [comparisons] in place of its own `compare:` list. */
    fun focused(configs: Set<String>, comparisons: List<SuiteComparison>): Suite = copy(only = configs, comparisons = comparisons)

    /** What profiles [app]'s measured windows: its own `profiler:`, else the suite's; null: nothing. */
    fun profilerOf(app: AppConfig): ProfilerSpec? = AppProfiler.effective(app.profiler, profiler)

    /** This suite with the profiler [spec] from the command line, or as it is when null. */
    fun withProfiler(spec: ProfilerSpec?): Suite = if (spec == null) this else copy(profiler = spec)

    /** This suite with the restart policy [id] (`cell` or `app`) from the command line, or as it is when null. */
    fun withRestart(id: String?): Suite = if (id == null) this else copy(restart = Restart.of(id))

    /** This suite with only the app configurations [names] (all when null); an unknown name is an error naming the known ones. */
    fun withApps(names: List<String>?): Suite {
        if (names == null) return this
        val unknown = names.filter { n -> apps.none { it.name == n } }
        require(unknown.isEmpty()) { "no app configuration named ${unknown.joinToString()} in suite $name (it has ${apps.joinToString { it.name }})" }
        // a comparison of an app left out cannot be decided in this run
        return copy(apps = apps.filter { it.name in names }, comparisons = comparisons.filter { c ->
            listOf(c.a, c.b).all { key -> key.substringBefore('/') in names }
        })
    }
}

/**
 * When the app under test is restarted. [CELL]: a fresh JVM for every cell, the careful default: no
 * state, JIT profile or grown pool carries from one cell to the next, and every cell records a startup.
 * [APP]: one JVM serves consecutive cells of the same app configuration (as one container serving every
 * endpoint); the first of them records the startup, and a cell that fails ends the process.
 */
enum class Restart(val id: String) {
    CELL("cell"), APP("app");

    companion object {
        fun of(id: String): Restart = entries.firstOrNull { it.id == id } ?: throw IllegalArgumentException("restart '$id' is not cell or app")
    }
}

/** One configuration of a system under test, named so results can refer to it. */
data class AppConfig(
    val name: String,
    val source: AppSource,
    val virtualThreads: Boolean,
    /** Spring properties, passed as `--key=value` (built-in apps only). */
    val properties: Map<String, String>,
    /** System properties, passed as `-Dkey=value` (e.g. reactor.netty.ioWorkerCount). */
    val systemProperties: Map<String, String>,
    /** Extra JVM flags, after the ones the profile sets. */
    val jvmArgs: List<String>,
    /** When an own app is ready; null: the built-in apps' health check. */
    val ready: Readiness? = null,
    /** How an own app is built before the run (its `build:`), or null. */
    val build: OwnBuild? = null,
    /** The JDK it runs on (`jdk:`); null: the JDK that runs the lab. */
    val jdk: JdkSpec? = null,
    /** Its own `profiler:` (a mode, or `none`) over the suite's; null: the suite's. */
    val profiler: AppProfiler? = null,
) {
    constructor(name: String, stack: Stack, virtualThreads: Boolean, properties: Map<String, String>, systemProperties: Map<String, String>, jvmArgs: List<String>) :
        this(name, AppSource.Builtin(stack), virtualThreads, properties, systemProperties, jvmArgs)

    /** The built-in stack, or null for an own app. */
    val stack: Stack? get() = (source as? AppSource.Builtin)?.stack
}

/** How a CPU allotment is enforced, the two ways containers do it. */
enum class CpuLimitMode(val id: String, val description: String) {
    QUOTA("quota", "CPU quota alone (Docker --cpus): threads may run on any core within the quota"),
    CPUSET("cpuset", "pinned cores (Docker --cpuset-cpus)"),
    QUOTA_AND_CPUSET("quota+cpuset", "pinned cores and a CPU quota"),
    NONE("none", "no CPU limit"),
}

/** The app's container: CPUs and memory, as the published comparisons' containers had. */
data class ResourceProfile(
    /** CPU quota in CPUs (1.0 = one CPU's worth of time per period); null = no quota. */
    val cpus: Double?,
    /** Pinned CPU ids; empty = not pinned. */
    val cpuset: List<Int>,
    /** Memory limit in bytes; null = none. */
    val memoryBytes: Long?,
    /** Heap as a share of the memory limit (the articles' InitialRAMPercentage=MaxRAMPercentage=75). */
    val heapPercent: Int,
    /**
     * `start-cpus: all`: the app starts on every CPU without a quota (its memory limit and processor count hold from the
     * first instruction), and its CPU limits apply once it is healthy; false (`limited`, the default): they hold from
     * the start. A faster start for suites that do not measure start-up (stackbench.runner.sut.AppLauncher).
     */
    val startOnAllCpus: Boolean = false,
) {
    val mode: CpuLimitMode
        get() = when {
            cpus != null && cpuset.isNotEmpty() -> CpuLimitMode.QUOTA_AND_CPUSET
            cpus != null -> CpuLimitMode.QUOTA
            cpuset.isNotEmpty() -> CpuLimitMode.CPUSET
            else -> CpuLimitMode.NONE
        }

    /** The CPUs the app may use, as a number: what -XX:ActiveProcessorCount and ceilings use. */
    fun allottedCpus(machineCpus: Int): Double = listOfNotNull(
        cpus,
        cpuset.size.takeIf { it > 0 }?.toDouble(),
    ).minOrNull() ?: machineCpus.toDouble()

    fun activeProcessorCount(machineCpus: Int): Int = kotlin.math.ceil(allottedCpus(machineCpus)).toInt().coerceAtLeast(1)

    fun heapBytes(): Long? = memoryBytes?.let { it * heapPercent / 100 }
}

/** The kinds of endpoint the apps serve, each with its own strategies and parameters. */
sealed interface EndpointSpec {
    /** App names this endpoint runs on; empty = every app of the suite. */
    val onlyApps: List<String>

    /** Whether this endpoint runs on [app]: the ones it names, else every app that serves it (the built-in kinds only the built-in apps). */
    fun runsOn(app: AppConfig): Boolean = if (onlyApps.isNotEmpty()) app.name in onlyApps else this is Http || app.stack != null

    data class Noop(override val onlyApps: List<String> = emptyList()) : EndpointSpec

    data class Cpu(
        val strategies: List<CpuStrategy>,
        val limits: List<Long>,
        /** Cooperative batch sizes; only `coop` sweeps them, other strategies ignore batch. */
        val batches: List<Long>,
        override val onlyApps: List<String> = emptyList(),
    ) : EndpointSpec

    data class Io(
        val strategies: List<IoStrategy>,
        val delaysMs: List<Long>,
        override val onlyApps: List<String> = emptyList(),
    ) : EndpointSpec

    data class Downstream(
        val clients: List<DownstreamClient>,
        val delaysMs: List<Long>,
        override val onlyApps: List<String> = emptyList(),
    ) : EndpointSpec

    data class Todo(
        val methods: List<TodoMethod>,
        override val onlyApps: List<String> = emptyList(),
    ) : EndpointSpec

    /**
     * A query on the run's database (`kind: db`): a read by key or a small write transaction, by [strategies] (`jdbc`
     * with HikariCP, `r2dbc` with its pool, `jdbc-offload` on WebFlux's boundedElastic), its wait made known by
     * `db-delay` (pg_sleep, ms). Needs the suite's `database:`.
     */
    data class Db(
        val strategies: List<String>,
        val ops: List<String>,
        val ids: List<Long>,
        val delaysMs: List<Long>,
        override val onlyApps: List<String> = emptyList(),
    ) : EndpointSpec {
        companion object {
            /** The apps' own lists (contract), so that the suite and the apps cannot name different ones. */
            val STRATEGIES = stackbench.contract.DbStrategy.entries.map { it.id }
            val OPS = stackbench.contract.DbOp.entries.map { it.id }
            /** The ids of the default schema's rows. */
            val IDS = 1L..10_000L
            val DELAYS_MS = 0L..60_000L
        }
    }

    /** An endpoint the suite declares ([HttpEndpointSpec]). */
    data class Http(val spec: HttpEndpointSpec, override val onlyApps: List<String> = emptyList()) : EndpointSpec
}

enum class TodoMethod { GET, POST }

/** The shape of the load, as a closed choice. */
sealed interface LoadModel {
    /** N connections, each sending its next request when the previous answer arrives. */
    data class Closed(val connections: List<Int>) : LoadModel

    /** Requests sent at a fixed rate whatever the answers do; latency counted from the intended send time. */
    data class Open(val rates: List<Double>, val connections: Int?) : LoadModel

    /** Open-model steps up the rate, then bisects, until the latency target breaks. */
    data class Capacity(val slo: Slo, val startRate: Double, val maxRate: Double, val precision: Double, val connections: Int?) : LoadModel

    /** A [Scenario]: ramps of users or arrivals, steps or a mix, think time (k6 only). */
    data class Scenario(val scenario: stackbench.runner.suite.Scenario) : LoadModel

    /** Its kind, as the driver catalog lists the models a driver supports. */
    val kind: LoadModelKind
        get() = when (this) {
            is Closed -> LoadModelKind.CLOSED
            is Open -> LoadModelKind.OPEN
            is Capacity -> LoadModelKind.CAPACITY
            is Scenario -> LoadModelKind.SCENARIO
        }
}

/** A latency and error target: the p99 must stay at or under [p99], errors at or under [errorRate]. */
data class Slo(val p99: Duration, val errorRate: Double)

/** How long each cell loads the app: for a duration, or a fixed number of requests (as hey's -n). */
sealed interface LoadLength {
    data class Timed(val duration: Duration) : LoadLength
    data class Counted(val requests: Int) : LoadLength
}

/** How the downstream service behaves; [stall] is the known-truth mode. */
data class DownstreamConfig(val stall: Stall?) {
    data class Stall(val every: Duration, val window: Duration, val hold: Duration)
}
