package stackbench.runner.suite

import org.snakeyaml.engine.v2.nodes.MappingNode
import org.snakeyaml.engine.v2.nodes.Node
import org.snakeyaml.engine.v2.nodes.ScalarNode
import org.snakeyaml.engine.v2.nodes.SequenceNode
import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.Units
import stackbench.runner.yaml.YamlMap
import java.time.Duration

/**
 * Reads `load.scenario:` (docs/suite-format.md): `users:` or `arrivals:` (with `max-users:`) as stages, `steps:`
 * or `mix:`, `think:`, `name:`, `warmup:` (its own stages, or the lab's steady-state watch). The steps' requests are checked against the suite's endpoints by the plan, which
 * knows them ([stackbench.runner.plan.Planner]); here only their form (`METHOD /path`).
 */
internal class ScenarioReader(private val m: YamlMap, private val problems: Problems) {

    fun read(): Scenario? {
        val name = m.scalar("name")?.let { node ->
            node.value.takeIf { NAME.matches(it) }
                ?: null.also { problems.at(node, m.qualify("name"), "'${node.value}' is not a plain name", "letters, digits, '-' and '_', e.g. name: todo") }
        } ?: DEFAULT_NAME
        val users = stages("users", "users")
        val arrivals = stages("arrivals", "iterations per second")
        val maxUsers = m.int("max-users", 1..100_000)
        val profile: ScenarioProfile? = when {
            users != null && arrivals != null -> null.also {
                problems.at(m.keyNode("arrivals"), m.qualify("arrivals"), "give users (a closed ramp) or arrivals (an open one), not both")
            }
            users != null -> {
                if (maxUsers != null) problems.at(m.valueNode("max-users"), m.qualify("max-users"), "does not apply to users: it caps arrivals' users")
                ScenarioProfile.Users(users)
            }
            arrivals != null -> ScenarioProfile.Arrivals(arrivals, maxUsers ?: DEFAULT_MAX_USERS)
            else -> null.also {
                problems.at(m.node, m.qualify("users"), "a scenario needs its load as stages",
                    "users: [{ duration: 60s, target: 100 }]   (or arrivals: [{ duration: 30s, target: 200 }] iterations/s, with max-users:)")
            }
        }
        val stepNodes = m.scalars("steps")
        val mixMaps = m.maps("mix")
        val steps: List<ScenarioStep>? = when {
            stepNodes != null && mixMaps != null -> null.also {
                problems.at(m.keyNode("mix"), m.qualify("mix"), "give steps (every request in order) or mix (one request by weight), not both")
            }
            stepNodes != null -> stepNodes.mapNotNull { step(it, it.value, m.qualify("steps"), 1) }
            mixMaps != null -> mixMaps.mapNotNull { e ->
                val node = e.scalar("request")
                val weight = e.int("weight", 1..1000) ?: 1
                val label = e.scalar("name")?.let { n ->
                    n.value.takeIf { STEP_NAME.matches(it) } ?: null.also { problems.at(n, e.qualify("name"), "'${n.value}' is not a plain name", "letters, digits, '-', '_' and '.', e.g. name: read") }
                }
                e.finish()
                if (node == null) null.also { problems.at(e.node, e.qualify("request"), "is required", "e.g. { request: GET /todo, weight: 3 }") }
                else step(node, node.value, e.qualify("request"), weight)?.copy(label = label)
            }.also { if (mixMaps.isEmpty()) problems.at(m.valueNode("mix"), m.qualify("mix"), "must not be empty") }
            else -> null.also {
                problems.at(m.node, m.qualify("steps"), "a scenario needs its requests", "steps: [POST /todo, GET /todo]   (the suite's endpoints)")
            }
        }
        val think = m.scalar("think")?.let(::think)
        val warmup = warmup()
        m.finish()
        if (profile == null || steps.isNullOrEmpty()) return null
        return Scenario(name, profile, steps, mixed = mixMaps != null, think = think, warmup = warmup)
    }

    private fun stages(key: String, what: String): List<Stage>? {
        val maps = m.maps(key) ?: return null
        if (maps.isEmpty()) problems.at(m.valueNode(key), m.qualify(key), "must not be empty", "e.g. $key: [{ duration: 60s, target: 100 }]")
        return maps.mapNotNull { s ->
            val duration = s.duration("duration", Duration.ofSeconds(1), Units.MAX_DURATION)
            val target = s.int("target", 0..1_000_000)
            if (!s.has("duration")) problems.at(s.node, s.qualify("duration"), "is required", "how long this stage moves to its target, e.g. duration: 60s")
            if (!s.has("target")) problems.at(s.node, s.qualify("target"), "is required", "the $what at the stage's end, e.g. target: 100")
            s.finish()
            if (duration == null || target == null) null else Stage(duration, target)
        }.takeIf { it.size == maps.size && it.isNotEmpty() }
            ?.also { st -> if (st.all { it.target == 0 }) problems.at(m.valueNode(key), m.qualify(key), "every stage's target is 0: no load") }
    }

    /**
     * `warmup:`: a list of stages (its own ramp, run and discarded), or `steady` / `{ min: 10s, max: 2m }` (the lab's
     * steady-state watch at the first measured stage's target); absent: none.
     */
    private fun warmup(): ScenarioWarmup? {
        val node = m.valueNode("warmup") ?: return null
        val key = m.qualify("warmup")
        val hint = "its own stages (warmup: [{ duration: 20s, target: 20 }]), or the lab's steady-state watch (warmup: { min: 10s, max: 2m }, or warmup: steady)"
        return when (node) {
            is SequenceNode -> stages("warmup", "users or iterations per second")?.let { ScenarioWarmup.Stages(it) }
            is ScalarNode -> if (node.value.trim() == STEADY) ScenarioWarmup.Steady(Defaults.WARMUP, DEFAULT_STEADY_MAX)
                else null.also { problems.at(node, key, "'${node.value}' is not a warm-up", hint) }
            is MappingNode -> {
                val w = m.map("warmup") ?: return null
                val min = w.duration("min", Duration.ofSeconds(1), Units.MAX_WARMUP)
                val max = w.duration("max", Duration.ofSeconds(1), Units.MAX_WARMUP)
                w.finish()
                val lo = min ?: Defaults.WARMUP
                val hi = max ?: maxOf(lo, DEFAULT_STEADY_MAX)
                if (hi < lo) null.also { problems.at(w.valueNode("max"), w.qualify("max"), "is shorter than min (${Units.formatDuration(lo)})", "the warm-up runs at least min, at most max") }
                else ScenarioWarmup.Steady(lo, hi)
            }
            else -> null.also { problems.at(node, key, "is not a warm-up", hint) }
        }
    }

    private fun step(node: Node, text: String, key: String, weight: Int): ScenarioStep? {
        val match = REQUEST.matchEntire(text.trim())
        if (match == null) {
            problems.at(node, key, "'$text' is not a request", "METHOD /path of one of the suite's endpoints, e.g. POST /todo")
            return null
        }
        val mark = node.startMark.orElse(null)
        return ScenarioStep(match.groupValues[1], match.groupValues[2], weight, (mark?.line ?: 0) + 1, (mark?.column ?: 0) + 1)
    }

    private fun think(node: org.snakeyaml.engine.v2.nodes.ScalarNode): Think? {
        val parts = node.value.split("..")
        val durations = parts.map { Units.duration(it.trim()) }
        if (parts.size !in 1..2 || durations.any { it == null || it.isNegative || it > MAX_THINK }) {
            problems.at(node, m.qualify("think"), "'${node.value}' is not a pause", "a fixed pause (think: 1.5s) or a uniform range (think: 1s..2s), at most 10 minutes")
            return null
        }
        val min = durations.first()!!
        val max = durations.last()!!
        if (max < min) {
            problems.at(node, m.qualify("think"), "'${node.value}' ends before it starts", "write the shorter pause first: think: 1s..2s")
            return null
        }
        return Think(min, max)
    }

    companion object {
        const val DEFAULT_NAME = "main"
        const val STEADY = "steady"

        /** A steady-state warm-up's cap when the suite gives none. */
        val DEFAULT_STEADY_MAX: Duration = Duration.ofMinutes(2)
        const val DEFAULT_MAX_USERS = 1000
        private val MAX_THINK: Duration = Duration.ofMinutes(10)
        private val NAME = Regex("[A-Za-z0-9_-]{1,40}")
        private val STEP_NAME = Regex("[A-Za-z0-9_.-]{1,40}")
        private val REQUEST = Regex("""(GET|POST|PUT|DELETE|PATCH|HEAD)\s+(/\S*)""")
    }
}
