package stackbench.runner.plan

import stackbench.contract.Paths
import stackbench.contract.Todo
import stackbench.runner.catalog.DriverSpec
import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.Defaults
import stackbench.runner.suite.LoadLength
import stackbench.runner.suite.LoadSettings
import stackbench.runner.suite.ResourceProfile
import stackbench.runner.suite.Slo
import stackbench.runner.yaml.Units
import java.time.Duration

/**
 * One measurement: one app configuration × one endpoint call × one load level × one repetition, with
 * every setting resolved. The runner runs a cell the same way every time; results record it as is.
 */
data class Cell(
    /** 1-based position in the plan. */
    val index: Int,
    val app: AppConfig,
    val profile: ResourceProfile,
    val endpoint: EndpointCall,
    val load: LoadLevel,
    val repetition: Int,
    /**
     * The app process (JVM) of its configuration this cell's window is measured in, 1-based: with `restart: app`
     * the suite's `processes` each hold `repetitions` windows; with `restart: cell` every cell is its own (= [repetition]).
     */
    val process: Int = 1,
    /** Whether the app restarts for every cell (`restart: cell`): then every cell is a process of its own. */
    val ownProcess: Boolean = true,
    /** This cell's window in its process, 1-based: the first, second, ... of the process's `repetitions`; 1 with a process of its own. */
    val window: Int = 1,
) {
    /** Which process measured this cell, as results record it: `tomcat-platform#2`; with `restart: cell`, the cell's own. */
    val processLabel: String get() = if (ownProcess) "$configKey#$process" else "${app.name}#$process"

    /** Stable across runs of the same suite, so `--resume` and `compare` can match cells. */
    val key: String get() = "$configKey/r$repetition"

    /** The cell's folder name under the run's cells/ folder. */
    val folder: String get() = "%03d-".format(index) + key.replace(Regex("[^A-Za-z0-9._@=-]+"), "_")

    /** Cells that differ only in repetition share this, for statistics across repetitions. */
    val configKey: String get() = if (load.shape is LoadShape.Scenario) "${app.name}/${load.label}" else "${app.name}/${endpoint.label}/${load.label}"

    /** Every request the cell sends: its scenario's, in order, or its one endpoint call. */
    val calls: List<EndpointCall> get() = (load.shape as? LoadShape.Scenario)?.calls ?: listOf(endpoint)
}

/** The request a cell sends: kind, strategy, parameters, method. */
data class EndpointCall(
    val kind: EndpointKind,
    /** The strategy or client id, for kinds that have one. */
    val strategy: String?,
    /** Query parameters in the order they appear in the URL. */
    val params: List<Pair<String, Long>>,
    val method: String = "GET",
    /** A declared endpoint's request (`kind: http`); null for the built-in kinds. */
    val http: stackbench.runner.suite.HttpRequestSpec? = null,
    /** Word-valued query parameters, before the numeric [params] (a db call's `op`). */
    val words: List<Pair<String, String>> = emptyList(),
) {
    val path: String
        get() = http?.path ?: (when (kind) {
            EndpointKind.NOOP -> Paths.NOOP
            EndpointKind.TODO -> Paths.TODO
            else -> "/${kind.id}/$strategy"
        } + query)

    private val query: String
        get() = (words + params.map { it.first to it.second.toString() }).let { all -> if (all.isEmpty()) "" else all.joinToString("&", "?") { "${it.first}=${it.second}" } }

    /** e.g. `cpu/direct?limit=1000`, `todo/POST`. */
    val label: String
        get() = http?.label ?: when (kind) {
            EndpointKind.NOOP -> "noop"
            EndpointKind.TODO -> "todo-$method"
            else -> "${kind.id}-$strategy" + words.joinToString("") { "-${it.second}" } + params.joinToString("") { "-${it.first}${it.second}" }
        }

    fun param(name: String): Long? = params.firstOrNull { it.first == name }?.second

    val needsDownstream: Boolean get() = kind == EndpointKind.DOWNSTREAM
    val needsCredentials: Boolean get() = kind == EndpointKind.TODO

    /** The body a POST sends. */
    val body: Todo? get() = if (kind == EndpointKind.TODO && method == "POST") POSTED_TODO else null

    companion object {
        val POSTED_TODO = Todo(id = 11, title = "Benchmark the stacks", description = null, completed = false)
    }
}

enum class EndpointKind(val id: String) { NOOP("noop"), CPU("cpu"), IO("io"), DOWNSTREAM("downstream"), TODO("todo"), DB("db"), HTTP("http") }

/** The load one cell gets: its shape, and the suite's settings as the plan scaled them ([LoadSettings]). */
data class LoadLevel(
    val shape: LoadShape,
    val settings: LoadSettings,
    /** The window the suite asked for before `--scale` shortened it; null when not scaled ([WindowRule]). */
    val fullDuration: Duration? = null,
) {
    /** The longest the window may grow to hold enough round trips: the suite's `duration-max`, else its own length when `--scale` shortened it. */
    val windowCap: Duration? get() = listOfNotNull(fullDuration, settings.durationMax).maxOrNull()

    val label: String get() = shape.label

    fun describe(): String = with(settings) { "${driver.id} ${shape.describe()} " + (if (instances > 1) "over $instances instances " else "") + when (length) {
        is LoadLength.Timed -> "for ${Units.formatDuration(length.duration)}"
        is LoadLength.Counted -> "${length.requests} requests"
    } + (if (warmup.isZero) ", no warm-up" else ", warm-up ${Units.formatDuration(warmup)}" + when {
        !prime -> " (not primed)"
        primeMax < Defaults.PRIME_MAX -> " (primed at most ${Units.formatDuration(primeMax)} a stage)"
        else -> ""
    } + (compileFirst?.let { ", its own request at one connection first until the JIT is quiet (at most ${Units.formatDuration(it)})" } ?: "")) +
        (if (warmupMax > warmup) " (until steady, at most ${Units.formatDuration(warmupMax)})" else "") +
        (if (warmupReconnect) ", then again on new connections until steady" else "") +
        (durationMax?.let { max -> " (the window longer where it needs to hold ${Defaults.MIN_ROUND_TRIPS} round trips a connection, at most ${Units.formatDuration(max)})" } ?: "") +
        ", timeout ${Units.formatDuration(timeout)}" }
}

/** The load of one cell: closed (N connections) or open (a fixed rate). */
sealed interface LoadShape {
    val label: String
    fun describe(): String

    /** The connections the load holds (for a scenario, its most users at once), as results record them. */
    val connections: Int

    /** The offered rate of an open-model load; null for the others. */
    val rate: Double? get() = null

    data class Closed(override val connections: Int) : LoadShape {
        override val label get() = "c$connections"
        override fun describe() = "closed model, $connections connections"
    }

    data class Open(override val rate: Double, override val connections: Int) : LoadShape {
        override val label get() = "rate${formatRate(rate)}"
        override fun describe() = "open model at ${formatRate(rate)} req/s (up to $connections connections)"
    }

    /**
     * A scenario ([stackbench.runner.suite.Scenario]): its steps resolved to the suite's endpoint calls, in the
     * scenario's order. One cell per app and repetition; its length is the scenario's.
     */
    data class Scenario(val scenario: stackbench.runner.suite.Scenario, val calls: List<EndpointCall>) : LoadShape {
        override val label get() = "scenario-${scenario.name}"

        /** The most users at once: the ramp's highest target, or the arrivals' user cap. */
        val peakUsers: Int get() = when (val p = scenario.profile) {
            is stackbench.runner.suite.ScenarioProfile.Users -> p.stages.maxOf { it.target }
            is stackbench.runner.suite.ScenarioProfile.Arrivals -> p.maxUsers
        }
        override val connections: Int get() = peakUsers
        override fun describe() = "scenario ${scenario.name}: " + when (val p = scenario.profile) {
            is stackbench.runner.suite.ScenarioProfile.Users -> "users " + p.stages.joinToString(" → ") { "${it.target} in ${Units.formatDuration(it.duration)}" }
            is stackbench.runner.suite.ScenarioProfile.Arrivals -> "arrivals/s " + p.stages.joinToString(" → ") { "${it.target} in ${Units.formatDuration(it.duration)}" } +
                " (at most ${p.maxUsers} users)"
        } + ", " + (if (scenario.mixed) "mix of " else "") + scenario.steps.joinToString(if (scenario.mixed) ", " else " then ") {
            it.request + if (scenario.mixed) " ×${it.weight}" else ""
        } + (scenario.think?.let { t -> ", think ${Units.formatDuration(t.min)}" + if (t.max > t.min) "..${Units.formatDuration(t.max)}" else "" } ?: "") +
            (scenario.warmup?.let { "; " + ScenarioWarmups.describe(scenario) } ?: "")
    }

    companion object {
        fun formatRate(rate: Double): String = if (rate == Math.floor(rate)) rate.toLong().toString() else "%.1f".format(rate)
    }
}

/** A capacity search the plan holds: open-model cells at rates chosen as it goes, until the target breaks. */
data class CapacitySearch(
    val app: AppConfig,
    val profile: ResourceProfile,
    val endpoint: EndpointCall,
    val template: LoadLevel,
    val slo: Slo,
    val startRate: Double,
    val maxRate: Double,
    val precision: Double,
    val connections: Int?,
    val repetition: Int,
    /**
     * Prime the app before the first step: one closed-model cell at [PRIME_CONNECTIONS] connections, warmed
     * until steady, so the steps measure a warmed app rather than one still compiling. Only worth it when the
     * steps share that app (`restart: app`); with a fresh app per cell each step's own warm-up is all there is.
     */
    val prime: Boolean = false,
) {
    val key: String get() = "$configKey/r$repetition"

    /** The searches that differ only in repetition share this, as cells do. */
    val configKey: String get() = "${app.name}/${endpoint.label}/capacity"

    /** The priming cell: the first step's load, closed-model and saturating. */
    fun primeCell(index: Int): Cell = Cell(index, app, profile, endpoint, template.copy(shape = LoadShape.Closed(PRIME_CONNECTIONS)), repetition)

    companion object {
        const val PRIME_CONNECTIONS = 50
    }
}
