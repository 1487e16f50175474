package stackbench.runner.suite

import stackbench.contract.CpuStrategy
import stackbench.contract.DownstreamClient
import stackbench.contract.IoStrategy
import stackbench.contract.Parameter
import stackbench.contract.Strategy
import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.YamlMap

/** Reads one `endpoints:` entry: its kind, strategies and parameter sweeps. */
internal class EndpointReader(val m: YamlMap, val appNames: Set<String>, val ownApps: Set<String>, val problems: Problems, val folder: java.nio.file.Path,
                             val hasDatabase: Boolean = false) {
    private val kinds = listOf("noop", "cpu", "io", "downstream", "todo", "db", "http")

    fun read(): EndpointSpec? {
        val kind = m.requiredString("kind", "one of: ${kinds.joinToString()}") ?: return null.also { m.finish() }
        val only = m.scalars("apps")?.mapNotNull { node ->
            node.value.takeIf { it in appNames } ?: null.also {
                problems.at(node, m.qualify("apps"), "'${node.value}' is not an app of this suite", "apps here: ${appNames.joinToString()}")
            }
        } ?: emptyList()
        if (kind != "http") only.filter { it in ownApps }.forEach { own ->
            problems.at(m.valueNode("apps"), m.qualify("apps"), "'$own' is your own app: it serves only the endpoints you declare (kind: http), not the built-in '$kind'",
                "declare its endpoint: {kind: http, name: NAME, path: /PATH, apps: [$own]}")
        }
        if (kind == "http") return HttpEndpointReader(m, problems, folder).read()?.let { EndpointSpec.Http(it, only) }.also { m.finish() }
        val spec = when (kind) {
            "noop" -> EndpointSpec.Noop(only)
            "cpu" -> EndpointSpec.Cpu(
                strategies("strategies", CpuStrategy.entries) { CpuStrategy.byId(it) },
                params("limit", Parameter.LIMIT, Defaults.CPU_LIMIT),
                params("batch", Parameter.BATCH, Defaults.COOP_BATCH),
                only,
            )
            "io" -> EndpointSpec.Io(strategies("strategies", IoStrategy.entries) { IoStrategy.byId(it) }, delays(), only)
            "downstream" -> EndpointSpec.Downstream(strategies("clients", DownstreamClient.entries) { DownstreamClient.byId(it) }, delays(), only)
            "todo" -> EndpointSpec.Todo(methods(), only)
            "db" -> db(only)
            else -> null.also {
                problems.at(m.valueNode("kind"), m.qualify("kind"), "'$kind' is not an endpoint kind", "one of: ${kinds.joinToString()}")
            }
        }
        m.finish()
        return spec
    }

    private fun <S : Strategy> strategies(key: String, all: List<S>, byId: (String) -> S?): List<S> {
        val nodes = m.scalars(key)
        if (nodes == null) {
            problems.at(m.node, m.qualify(key), "is required", "one or more of: ${all.joinToString { it.id }}, or 'all'")
            return emptyList()
        }
        if (nodes.size == 1 && nodes[0].value == "all") return all
        return nodes.mapNotNull { node ->
            byId(node.value) ?: null.also {
                problems.at(node, m.qualify(key), "'${node.value}' is not a strategy of this endpoint", "one of: ${all.joinToString { it.id }}")
            }
        }.distinct()
    }

    private fun params(key: String, parameter: Parameter, default: Long): List<Long> {
        val nodes = m.scalars(key) ?: return listOf(default)
        return nodes.mapNotNull { node ->
            val v = node.value.replace("_", "").toLongOrNull()
            if (v == null || v !in parameter.range) {
                null.also { problems.at(node, m.qualify(key), "'${node.value}' is not a whole number in ${parameter.allowed}") }
            } else v
        }.distinct()
    }

    private fun delays(): List<Long> {
        val nodes = m.scalars("delay") ?: return listOf(Defaults.DELAY_MS)
        return nodes.mapNotNull { node ->
            val d = m.parseDuration(node, m.qualify("delay")) ?: return@mapNotNull null
            val ms = d.toMillis()
            if (ms !in Parameter.DELAY.range) null.also { problems.at(node, m.qualify("delay"), "'${node.value}' is outside ${Parameter.DELAY.allowed}") }
            else ms
        }.distinct()
    }

    /** `kind: db`: strategies, `op` (read, write), `id` and `db-delay` swept; the suite must start a database. */
    private fun db(only: List<String>): EndpointSpec.Db {
        if (!hasDatabase) problems.at(m.valueNode("kind"), m.qualify("kind"), "'db' queries the run's database, but the suite has no database:",
            "add database: {engine: postgresql, schema: ${DatabaseSpec.DEFAULT_SCHEMA}}")
        val strategies = m.scalars("strategies")?.let { nodes ->
            if (nodes.size == 1 && nodes[0].value == "all") EndpointSpec.Db.STRATEGIES
            else nodes.mapNotNull { n -> n.value.takeIf { it in EndpointSpec.Db.STRATEGIES } ?: null.also {
                problems.at(n, m.qualify("strategies"), "'${n.value}' is not a strategy of this endpoint", "one of: ${EndpointSpec.Db.STRATEGIES.joinToString()}")
            } }.distinct()
        } ?: emptyList<String>().also { problems.at(m.node, m.qualify("strategies"), "is required", "one or more of: ${EndpointSpec.Db.STRATEGIES.joinToString()}, or 'all'") }
        val ops = m.scalars("op")?.mapNotNull { n -> n.value.takeIf { it in EndpointSpec.Db.OPS } ?: null.also {
            problems.at(n, m.qualify("op"), "'${n.value}' is not read or write")
        } }?.distinct() ?: listOf("read")
        val ids = m.scalars("id")?.mapNotNull { n -> n.value.replace("_", "").toLongOrNull()?.takeIf { it in EndpointSpec.Db.IDS } ?: null.also {
            problems.at(n, m.qualify("id"), "'${n.value}' is not a whole number in ${EndpointSpec.Db.IDS.first}..${EndpointSpec.Db.IDS.last}", "the default schema's rows")
        } }?.distinct() ?: listOf(1L)
        val delays = m.scalars("db-delay")?.mapNotNull { n ->
            val ms = m.parseDuration(n, m.qualify("db-delay"))?.toMillis() ?: return@mapNotNull null
            if (ms !in EndpointSpec.Db.DELAYS_MS) null.also { problems.at(n, m.qualify("db-delay"), "'${n.value}' is outside 0..60000 ms") } else ms
        }?.distinct() ?: listOf(0L)
        return EndpointSpec.Db(strategies, ops, ids, delays, only)
    }

    private fun methods(): List<TodoMethod> {
        val nodes = m.scalars("method") ?: return listOf(TodoMethod.GET)
        return nodes.mapNotNull { node ->
            TodoMethod.entries.firstOrNull { it.name == node.value.uppercase() } ?: null.also {
                problems.at(node, m.qualify("method"), "'${node.value}' is not GET or POST")
            }
        }.distinct()
    }
}
