package stackbench.runner.suite

import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.Units
import stackbench.runner.yaml.YamlMap
import java.time.Duration

/** Reads the `load:` section: driver, model (closed, open, a capacity search, or a scenario), how long, and over how many instances. */
internal class LoadReader(private val m: YamlMap, private val problems: Problems) {

    fun read(): LoadSpec {
        val driverNode = m.scalar("driver")
        val driver = driverNode?.let { node ->
            DriverCatalog.byId(node.value) ?: null.also {
                problems.at(node, m.qualify("driver"), "'${node.value}' is not a load driver", "one of: ${DriverCatalog.all.joinToString { it.id }}")
            }
        } ?: Defaults.DRIVER
        val modelNode = m.scalar("model")
        val modelId = modelNode?.value ?: "closed"
        val find = m.scalar("find")
        val connections = m.scalars("connections")?.mapNotNull { node ->
            node.value.toIntOrNull()?.takeIf { it in 1..100_000 }
                ?: null.also { problems.at(node, m.qualify("connections"), "'${node.value}' is not a whole number in 1..100000") }
        }
        val rates = m.scalars("rates")?.mapNotNull { node ->
            Units.number(node.value)?.takeIf { it > 0 && it <= 1_000_000 }
                ?: null.also { problems.at(node, m.qualify("rates"), "'${node.value}' is not a rate in requests/s (0..1000000]") }
        }
        val model: LoadModel = when (modelId) {
            "closed" -> {
                reject(listOf("rates", "find", "slo", "start-rate", "max-rate", "precision"), "only open-model loads take it")
                reject(listOf("scenario"), "only a scenario (model: scenario) takes it")
                LoadModel.Closed(connections?.distinct() ?: listOf(Defaults.CONNECTIONS))
            }
            "open" -> {
                if (connections != null && connections.size > 1) problems.at(m.valueNode("connections"), m.qualify("connections"),
                    "an open-model load takes one connection cap, not a sweep", "sweep the rate instead: rates: [100, 200]")
                val cap = connections?.firstOrNull()
                if (find != null) {
                    if (find.value != "capacity") problems.at(find, m.qualify("find"), "'${find.value}' is not something to find", "find: capacity")
                    if (rates != null) problems.at(m.valueNode("rates"), m.qualify("rates"), "a capacity search chooses its own rates", "give start-rate and max-rate instead")
                    readCapacity(cap)
                } else {
                    reject(listOf("slo", "start-rate", "max-rate", "precision"), "only a capacity search (find: capacity) takes it")
                    reject(listOf("scenario"), "only a scenario (model: scenario) takes it")
                    if (rates == null) problems.at(m.node, m.qualify("rates"), "an open-model load needs its rates", "e.g. rates: [100, 200, 400]")
                    LoadModel.Open(rates?.distinct() ?: emptyList(), cap)
                }
            }
            "scenario" -> {
                reject(listOf("connections", "rates", "find", "slo", "start-rate", "max-rate", "precision"), "a scenario's users and rates are its stages")
                reject(listOf("duration", "requests"), "a scenario lasts as long as its stages")
                if (m.has("warmup")) problems.at(m.keyNode("warmup"), m.qualify("warmup"), "does not apply to a scenario: its ramp is measured whole, as the articles counted it",
                    "leave warmup out (a scenario starts on a fresh app and measures its ramp), or ramp slowly in a first stage")
                val node = m.map("scenario")
                if (node == null && !m.has("scenario")) problems.at(m.node, m.qualify("scenario"), "a scenario load needs its scenario",
                    "scenario: { users: [{ duration: 60s, target: 100 }], steps: [POST /todo, GET /todo], think: 1s..2s }")
                val scenario = node?.let { ScenarioReader(it, problems).read() }
                if (scenario == null) LoadModel.Closed(listOf(Defaults.CONNECTIONS)) else LoadModel.Scenario(scenario)
            }
            else -> LoadModel.Closed(listOf(Defaults.CONNECTIONS)).also {
                problems.at(modelNode, m.qualify("model"), "'$modelId' is not a load model", "closed (N connections), open (a fixed rate) or scenario (k6: ramps, steps, think time)")
            }
        }
        val kind = if (modelId == "scenario") stackbench.runner.catalog.LoadModelKind.SCENARIO else model.kind
        if (kind !in driver.models) {
            val other = DriverCatalog.all.firstOrNull { kind in it.models }
            problems.at(driverNode ?: modelNode, m.qualify(if (driverNode != null) "driver" else "model"),
                "${driver.id} drives a ${driver.models.joinToString(" or ") { it.id }} model only",
                other?.let { "use driver: ${it.id} for ${kind.id}-model loads" })
        }
        val instancesNode = m.scalar("instances")
        val instances = m.int("instances", 1..64) ?: 1
        if (instances > 1 && !driver.splits) {
            val other = DriverCatalog.all.firstOrNull { it.splits }
            problems.at(instancesNode, m.qualify("instances"), "${driver.id} cannot split one load over several instances",
                other?.let { "use driver: ${it.id} (execution segments), or leave instances out" })
        }
        val hasDuration = m.has("duration")
        val duration = m.duration("duration", Duration.ofSeconds(1), Units.MAX_DURATION) ?: Defaults.DURATION
        val requests = m.int("requests", 1..100_000_000)
        if (requests != null && hasDuration) {
            problems.at(m.valueNode("requests"), m.qualify("requests"), "give duration or requests, not both")
        }
        if (requests != null && model !is LoadModel.Closed) {
            problems.at(m.valueNode("requests"), m.qualify("requests"), "a fixed request count goes with a closed model")
        }
        if (requests != null && !driver.countedLength) {
            val other = DriverCatalog.all.firstOrNull { it.countedLength }
            problems.at(m.valueNode("requests"), m.qualify("requests"), "${driver.id} runs for a duration, not a request count",
                other?.let { "use driver: ${it.id} for a fixed request count" })
        }
        val warmup = m.duration("warmup", Duration.ZERO, Units.MAX_WARMUP) ?: if (model is LoadModel.Scenario) Duration.ZERO else Defaults.WARMUP
        val warmupMax = m.duration("warmup-max", Duration.ZERO, Units.MAX_WARMUP)?.also {
            if (it < warmup) problems.at(m.valueNode("warmup-max"), m.qualify("warmup-max"), "is shorter than warmup (${Units.formatDuration(warmup)})")
        } ?: warmup
        val durationMax = m.duration("duration-max", Duration.ofSeconds(1), Units.MAX_DURATION)?.also {
            val node = m.valueNode("duration-max")
            val key = m.qualify("duration-max")
            when {
                model !is LoadModel.Closed -> problems.at(node, key, "lengthens a closed-model window to hold enough round trips a connection; " +
                    "this load is not a closed model")
                requests != null -> problems.at(node, key, "goes with a window of a duration, not a request count")
                it < duration -> problems.at(node, key, "is shorter than duration (${Units.formatDuration(duration)})")
            }
        }
        val timeout = m.duration("timeout", Duration.ofMillis(1), Duration.ofMinutes(10)) ?: Defaults.TIMEOUT
        val threads = m.int("threads", 1..256)
        val prime = m.boolean("prime") ?: true
        val primeMax = m.duration("prime-max", Defaults.PRIME_MIN, Defaults.PRIME_MAX)?.also {
            if (!prime) problems.at(m.valueNode("prime-max"), m.qualify("prime-max"), "caps the priming, and prime is false")
        } ?: Defaults.PRIME_MAX
        val compileFirst = m.duration("compile-first", Defaults.PRIME_MIN, Units.MAX_WARMUP)?.also {
            val node = m.valueNode("compile-first")
            val key = m.qualify("compile-first")
            when {
                warmup.isZero -> problems.at(node, key, "compiles before the warm-up, and warmup is 0 (a cold JVM measured on purpose)")
                model is LoadModel.Scenario -> problems.at(node, key, "drives one request at one connection; a scenario has no single request")
            }
        }
        val warmupReconnect = m.boolean("warmup-reconnect")?.also { on ->
            val node = m.valueNode("warmup-reconnect")
            val key = m.qualify("warmup-reconnect")
            when {
                on && warmup.isZero -> problems.at(node, key, "warms up a second time on new connections, and warmup is 0 (a cold JVM measured on purpose)")
                on && model is LoadModel.Scenario -> problems.at(node, key, "warms up the cell's load again on new connections; a scenario is warmed up as it runs")
            }
        } ?: false
        m.finish()
        val length = when {
            model is LoadModel.Scenario -> LoadLength.Timed(model.scenario.duration)
            requests != null -> LoadLength.Counted(requests)
            else -> LoadLength.Timed(duration)
        }
        return LoadSpec(model, LoadSettings(driver, length, warmup, timeout, threads, warmupMax, instances, durationMax, prime, primeMax, compileFirst, warmupReconnect))
    }

    private fun readCapacity(cap: Int?): LoadModel.Capacity {
        val sloMap = m.map("slo")
        var p99: Duration? = null
        var errors = Defaults.SLO_ERROR_RATE
        if (sloMap == null) {
            problems.at(m.node, m.qualify("slo"), "a capacity search needs a target", "e.g. slo: {p99: 100ms, errors: 0.1%}")
        } else {
            p99 = sloMap.duration("p99", Duration.ofMillis(1), Duration.ofMinutes(1))
            if (p99 == null && !sloMap.has("p99")) problems.at(sloMap.node, sloMap.qualify("p99"), "is required", "e.g. p99: 100ms")
            sloMap.scalar("errors")?.let { node ->
                val p = Units.percent(node.value)
                if (p == null || p < 0 || p > 100) problems.at(node, sloMap.qualify("errors"), "'${node.value}' is not a share in 0%..100%", Units.PERCENT_HINT)
                else errors = p / 100
            }
            sloMap.finish()
        }
        val start = m.double("start-rate", 0.1, 1_000_000.0) ?: Defaults.CAPACITY_START_RATE
        val max = m.double("max-rate", 0.1, 1_000_000.0) ?: Defaults.CAPACITY_MAX_RATE
        if (max <= start) problems.at(m.valueNode("max-rate"), m.qualify("max-rate"), "must be above start-rate ($start)")
        val precision = m.scalar("precision")?.let { node ->
            Units.percent(node.value)?.takeIf { it >= 0.1 && it <= 50 }?.div(100)
                ?: null.also { problems.at(node, m.qualify("precision"), "'${node.value}' is not a share in 0.1%..50%", Units.PERCENT_HINT) }
        } ?: Defaults.CAPACITY_PRECISION
        return LoadModel.Capacity(Slo(p99 ?: Duration.ofMillis(100), errors), start, max, precision, cap)
    }

    private fun reject(keys: List<String>, why: String) {
        for (key in keys) {
            if (m.has(key)) problems.at(m.keyNode(key), m.qualify(key), "does not apply here: $why")
            m.allow(key)
        }
    }

    companion object {
        fun defaults() = LoadSpec(
            LoadModel.Closed(listOf(Defaults.CONNECTIONS)),
            LoadSettings(Defaults.DRIVER, LoadLength.Timed(Defaults.DURATION), Defaults.WARMUP, Defaults.TIMEOUT, null),
        )
    }
}
