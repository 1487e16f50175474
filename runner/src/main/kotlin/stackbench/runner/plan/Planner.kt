package stackbench.runner.plan

import stackbench.contract.CpuStrategy
import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.EndpointSpec
import stackbench.runner.suite.LoadLength
import stackbench.runner.suite.LoadSettings
import stackbench.runner.suite.LoadModel
import stackbench.runner.suite.Suite
import stackbench.runner.suite.TodoMethod
import java.time.Duration

/** Everything a suite expands to: fixed cells, and capacity searches that make their cells as they run. */
data class Plan(
    val suite: Suite, val cells: List<Cell>, val searches: List<CapacitySearch>, val scale: Double,
    /** Windows per process (the suite's `repetitions`, or `--repetitions`). */
    val windows: Int = suite.repetitions,
    /** App processes per configuration (the suite's `processes`, or `--processes`); with `restart: cell` each window is its own. */
    val processes: Int = suite.processes,
) {
    val estimatedDuration: Duration
        get() = cells.fold(Duration.ZERO) { acc, c -> acc + Estimates.cell(c) } +
            Estimates.priming(cells, suite.restart == stackbench.runner.suite.Restart.APP) +
            searches.fold(Duration.ZERO) { acc, s -> acc + Estimates.search(s) }
}

/**
 * Turns a suite into its plan: a pure function, every combination spelled out. Repetitions are the outer
 * loop, so the repetitions of one configuration are spread over the run rather than back to back, and
 * drift (thermal, background work) falls evenly on every configuration.
 */
object Planner {

    /** [scale] multiplies warm-up and measured durations (and request counts): 0.1 runs a tenth as long. */
    fun plan(suite: Suite, scale: Double = 1.0, repetitions: Int? = null, processes: Int? = null): Plan {
        require(scale > 0) { "scale must be positive" }
        val reps = repetitions ?: suite.repetitions
        val procs = processes ?: suite.processes
        val keptApps = suite.restart == stackbench.runner.suite.Restart.APP
        val combos = suite.apps.flatMap { app ->
            suite.endpoints.filter { it.runsOn(app) }
                .flatMap { calls(it) }
                .map { app to it }
        }
        val load = suite.load
        val length = when (val l = load.settings.length) {
            is LoadLength.Timed -> LoadLength.Timed(scaled(l.duration, scale).coerceAtLeast(Duration.ofSeconds(1)))
            is LoadLength.Counted -> LoadLength.Counted((l.requests * scale).toInt().coerceAtLeast(1))
        }
        val full = (load.settings.length as? LoadLength.Timed)?.duration?.takeIf { scale != 1.0 }
        // the suite's settings as every level carries them: the window and the warm-up scaled
        val settings = load.settings.copy(length = length, warmup = scaled(load.settings.warmup, scale), warmupMax = scaled(load.settings.warmupMax, scale))
        val cells = mutableListOf<Cell>()
        val searches = mutableListOf<CapacitySearch>()
        // every configuration the suite has, kept or not, so that a key of `only` naming none is an error
        val configs = mutableSetOf<String>()
        fun kept(configKey: String): Boolean {
            configs += configKey
            return suite.only == null || configKey in suite.only
        }
        var process = 1
        fun add(app: AppConfig, call: EndpointCall, level: LoadLevel, rep: Int) {
            val c = Cell(cells.size + 1, app, suite.profile, call, level, rep,
                process = if (keptApps) process else rep, ownProcess = !keptApps, window = if (keptApps) (rep - 1) % reps + 1 else 1)
            if (kept(c.configKey)) cells += c
        }
        val scenario = (load.model as? LoadModel.Scenario)?.scenario
        // processes outermost, then the windows in each, then the configurations: A1 B1 A2 B2..., so that drift on the
        // machine falls on every configuration's processes alike; repetitions count on across processes (r1..r[procs × reps])
        val order = (1..procs).flatMap { p -> (1..reps).map { w -> p to (p - 1) * reps + w } }
        for ((p, rep) in order) {
            process = p
            if (scenario != null) {
                // one cell per app: the scenario's requests are its steps, resolved against the suite's endpoints
                for (app in suite.apps) {
                    val shape = LoadShape.Scenario(scenario.scaled(scale), ScenarioPlan.calls(suite, app, scenario))
                    // a scenario's warm-up, when it declares one, is the cell's warm-up: its bounds are the settings' (ScenarioWarmups)
                    val warm = shape.scenario.warmup
                    add(app, shape.calls.first(), LoadLevel(shape, settings.copy(length = LoadLength.Timed(shape.scenario.duration), durationMax = null,
                        warmup = warm?.min ?: settings.warmup, warmupMax = warm?.max ?: settings.warmupMax)), rep)
                }
                continue
            }
            for ((app, call) in combos) {
                when (val model = load.model) {
                    is LoadModel.Closed -> model.connections.forEach { c ->
                        add(app, call, LoadLevel(LoadShape.Closed(c), settings, full), rep)
                    }
                    is LoadModel.Open -> model.rates.forEach { rate ->
                        val shape = LoadShape.Open(rate, model.connections ?: OpenModel.connectionsFor(rate, settings.timeout))
                        add(app, call, LoadLevel(shape, settings.copy(durationMax = null)), rep)
                    }
                    is LoadModel.Capacity -> CapacitySearch(
                        // one instance, the default priming: a search's steps are its own cells (run/CapacitySearchRunner)
                        app, suite.profile, call, LoadLevel(LoadShape.Open(model.startRate, 1), LoadSettings(settings.driver, length, settings.warmup, settings.timeout, settings.threads, settings.warmupMax)),
                        model.slo, model.startRate, model.maxRate, model.precision, model.connections, rep,
                        prime = suite.restart == stackbench.runner.suite.Restart.APP,
                    ).let { s -> if (kept(s.configKey)) searches += s }
                    is LoadModel.Scenario -> error("a scenario is planned above")
                }
            }
        }
        checkOnly(suite, configs)
        if (cells.isEmpty() && searches.isEmpty()) throw noCell(suite)
        checkComparisons(suite, cells)
        return Plan(suite, cells, searches, scale, reps, procs)
    }

    /** Every configuration `only` keeps must be one the suite has: a key naming none would silently plan nothing for it. */
    private fun checkOnly(suite: Suite, configs: Set<String>) {
        val unknown = suite.only.orEmpty().filter { it !in configs }
        if (unknown.isEmpty()) return
        throw stackbench.runner.yaml.SuiteException(unknown.map { key ->
            val near = configs.minByOrNull { stackbench.runner.yaml.YamlMap.editDistance(it, key) }
            stackbench.runner.yaml.SuiteProblem(suite.source, 1, 1, "only", "'$key' is not a configuration of this suite",
                near?.let { "did you mean '$it'? (./stackbench plan lists every configuration)" })
        })
    }

    /** A suite that expands to nothing is a suite problem naming why, not a run of zero cells. */
    private fun noCell(suite: Suite): stackbench.runner.yaml.SuiteException {
        val why = when {
            suite.apps.isEmpty() -> "it has no app configuration (or --apps left none)"
            suite.only?.isEmpty() == true -> "it was narrowed to no configuration"
            suite.endpoints.isEmpty() -> "it has no endpoint"
            else -> "no endpoint runs on its apps (${suite.apps.joinToString { it.name }}): every endpoint's apps: names others"
        }
        return stackbench.runner.yaml.SuiteException(listOf(stackbench.runner.yaml.SuiteProblem(suite.source, 1, 1, "endpoints",
            "the suite expands to no cell: $why", "./stackbench plan lists the cells a suite expands to")))
    }

    /** Every `compare:` side must name a configuration the plan has; otherwise a suite problem at the entry. */
    private fun checkComparisons(suite: Suite, cells: List<Cell>) {
        val keys = cells.map { it.configKey }.distinct()
        val problems = suite.comparisons.flatMap { c ->
            listOf("a" to c.a, "b" to c.b).filter { it.second !in keys }.map { (side, key) ->
                val near = keys.minByOrNull { stackbench.runner.yaml.YamlMap.editDistance(it, key) }
                stackbench.runner.yaml.SuiteProblem(suite.source, c.line, c.column, "compare.$side",
                    "'$key' is not a configuration of this suite", near?.let { "did you mean '$it'? (./stackbench plan lists every configuration)" })
            }
        }
        if (problems.isNotEmpty()) throw stackbench.runner.yaml.SuiteException(problems)
    }

    /** The calls one endpoint entry expands to; only `coop` sweeps the batch. */
    fun calls(spec: EndpointSpec): List<EndpointCall> = when (spec) {
        is EndpointSpec.Noop -> listOf(EndpointCall(EndpointKind.NOOP, null, emptyList()))
        is EndpointSpec.Cpu -> spec.strategies.flatMap { s ->
            spec.limits.flatMap { limit ->
                if (s == CpuStrategy.COOP) spec.batches.map { b -> EndpointCall(EndpointKind.CPU, s.id, listOf("limit" to limit, "batch" to b)) }
                else listOf(EndpointCall(EndpointKind.CPU, s.id, listOf("limit" to limit)))
            }
        }
        is EndpointSpec.Io -> spec.strategies.flatMap { s -> spec.delaysMs.map { EndpointCall(EndpointKind.IO, s.id, listOf("delay" to it)) } }
        is EndpointSpec.Downstream -> spec.clients.flatMap { c -> spec.delaysMs.map { EndpointCall(EndpointKind.DOWNSTREAM, c.id, listOf("delay" to it)) } }
        is EndpointSpec.Todo -> spec.methods.map { EndpointCall(EndpointKind.TODO, null, emptyList(), if (it == TodoMethod.POST) "POST" else "GET") }
        is EndpointSpec.Db -> spec.strategies.flatMap { s -> spec.ops.flatMap { op -> spec.ids.flatMap { id -> spec.delaysMs.map { d ->
            EndpointCall(EndpointKind.DB, s, listOf("id" to id, "db-delay" to d), words = listOf("op" to op))
        } } } }
        is EndpointSpec.Http -> spec.spec.requests().map { EndpointCall(EndpointKind.HTTP, spec.spec.name, emptyList(), it.method, it) }
    }

    private fun scaled(d: Duration, scale: Double): Duration = Duration.ofMillis((d.toMillis() * scale).toLong())
}

/** Open-model sizing: enough connections that the client never has to queue a request. */
object OpenModel {
    /**
     * Little's law for the client: requests in flight = rate × latency. With the worst latency the cell
     * can see (its timeout), the client needs that many connections; capped to what one client sensibly holds.
     */
    fun connectionsFor(rate: Double, worstLatency: Duration, cap: Int = 10_000): Int =
        kotlin.math.ceil(rate * worstLatency.toMillis() / 1000.0).toInt().coerceIn(1, cap)
}
