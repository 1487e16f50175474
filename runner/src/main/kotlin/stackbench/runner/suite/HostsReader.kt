package stackbench.runner.suite

import org.snakeyaml.engine.v2.nodes.ScalarNode
import stackbench.runner.catalog.DriverSpec
import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.Units
import stackbench.runner.yaml.YamlMap
import java.time.Duration

/**
 * Reads the `hosts:` list and the `placement:` mapping: the hosts a suite's roles may run on (this machine, a
 * network namespace, a machine over SSH) and which host runs the app, the downstream service and the load.
 */
internal class HostsReader(private val root: YamlMap, private val problems: Problems, private val load: LoadSpec) {
    private val driver: DriverSpec get() = load.settings.driver


    fun read(): HostsSpec {
        val declared = root.maps("hosts")?.mapNotNull { readHost(it) } ?: emptyList()
        val hosts = mutableListOf<HostSpec>(HostSpec.Local(HostSpec.LOCAL))
        for ((node, key, host) in declared) {
            when {
                host.name == HostSpec.LOCAL -> problems.at(node, key, "'local' is the built-in host (this machine)", "give the host another name")
                hosts.any { it.name == host.name } -> problems.at(node, key, "'${host.name}' is named twice; host names must be unique")
                else -> hosts += host
            }
        }
        val placement = root.map("placement")?.let { readPlacement(it, hosts) } ?: HostPlacement()
        return HostsSpec(hosts, placement)
    }

    private fun readHost(m: YamlMap): Triple<ScalarNode, String, HostSpec>? {
        val nameNode = m.scalar("name")
        if (nameNode == null && !m.has("name")) problems.at(m.node, m.qualify("name"), "is required", "a short name such as server or load1")
        val name = nameNode?.value
        if (nameNode != null && !NAME.matches(nameNode.value)) {
            problems.at(nameNode, m.qualify("name"), "'${nameNode.value}' is not a host name", "lower-case letters, digits and '-', at most 20, starting with a letter")
        }
        val kindNode = m.scalar("kind")
        val kind = kindNode?.value ?: "local"
        if (kind !in KINDS) problems.at(kindNode, m.qualify("kind"), "'$kind' is not a kind of host", "one of: ${KINDS.joinToString()}")
        fun only(kinds: Set<String>, vararg keys: String) = keys.forEach { key ->
            if (kind in KINDS && kind !in kinds && m.has(key)) {
                problems.at(m.keyNode(key), m.qualify(key), "does not apply to a $kind host", "only ${kinds.joinToString(" or ")} hosts take it")
            }
            m.allow(key)
        }
        only(setOf("netns"), "rtt", "rate")
        only(setOf("ssh"), "address", "user", "key", "port", "cpus", "java", "known-hosts")
        val host = when (kind) {
            "local" -> name?.let { HostSpec.Local(it) }
            "netns" -> {
                val rtt = m.duration("rtt", Duration.ZERO, MAX_RTT)?.takeIf { !it.isZero }
                val rate = m.scalar("rate")?.let { node ->
                    rate(node.value)?.takeIf { it in MIN_RATE..MAX_RATE }
                        ?: null.also { problems.at(node, m.qualify("rate"), "'${node.value}' is not a bandwidth in 1mbit..100gbit", RATE_HINT) }
                }
                name?.let { HostSpec.Netns(it, rtt, rate) }
            }
            "ssh" -> readSsh(m, name)
            else -> null
        }
        m.finish()
        return if (host != null && nameNode != null) Triple(nameNode, m.qualify("name"), host) else null
    }

    private fun readSsh(m: YamlMap, name: String?): HostSpec.Ssh? {
        if (!m.has("address")) problems.at(m.node, m.qualify("address"), "is required for an ssh host", "the machine's address or name, e.g. address: 10.0.0.5")
        val address = m.scalar("address")?.value?.also { a ->
            if (!ADDRESS.matches(a)) problems.at(m.valueNode("address"), m.qualify("address"), "'$a' is not an address or host name")
        }
        val user = m.scalar("user")?.value?.also { u ->
            if (!USER.matches(u)) problems.at(m.valueNode("user"), m.qualify("user"), "'$u' is not a user name")
        } ?: "root"
        val key = m.string("key")
        val port = m.int("port", 1..65535) ?: 22
        val cpus = m.scalars("cpus")?.mapNotNull { node ->
            node.value.toIntOrNull()?.takeIf { it in 0..4095 }
                ?: null.also { problems.at(node, m.qualify("cpus"), "'${node.value}' is not a CPU number in 0..4095") }
        }?.distinct()?.sorted() ?: emptyList()
        val java = m.string("java") ?: "java"
        val knownHosts = m.string("known-hosts")
        if (name == null || address == null) return null
        return HostSpec.Ssh(name, address, user, key, port, cpus, java, knownHosts)
    }

    private fun readPlacement(m: YamlMap, hosts: List<HostSpec>): HostPlacement {
        fun host(node: ScalarNode, key: String): HostSpec? = hosts.firstOrNull { it.name == node.value }
            ?: null.also { problems.at(node, m.qualify(key), "'${node.value}' is not a host of this suite", "hosts here: ${hosts.joinToString { it.name }}") }
        val app = m.scalar("app")?.let { node ->
            host(node, "app")?.also {
                if (it is HostSpec.Ssh) problems.at(node, m.qualify("app"), "the app cannot run on an ssh host yet: the lab samples the app's process and cgroup on this machine",
                    "place the app on a local or netns host; the load and the downstream service may run over ssh")
            }
        }
        val downstream = m.scalar("downstream")?.let { host(it, "downstream") }
        val loadNodes = m.scalars("load") ?: emptyList()
        val load = loadNodes.mapNotNull { node ->
            host(node, "load")?.also {
                if (it is HostSpec.Ssh && !driver.splits) problems.at(node, m.qualify("load"),
                    "${driver.id} cannot run on an ssh host: it reads and writes its files on this machine",
                    "place the load on a local or netns host, or use driver: k6")
                else if (it is HostSpec.Ssh && load.model !is LoadModel.Scenario) problems.at(node, m.qualify("load"),
                    "k6 runs on an ssh host only for a scenario (model: scenario): a closed or open load's warm-up and the app's priming run on this machine's files",
                    "use model: scenario, or place the load on a local or netns host")
            }
        }
        loadNodes.groupBy { it.value }.filter { it.value.size > 1 }.forEach { (name, nodes) ->
            problems.at(nodes[1], m.qualify("load"), "'$name' is named twice", "name each load host once")
        }
        if (loadNodes.size > 1 && !driver.splits) {
            problems.at(m.valueNode("load"), m.qualify("load"), "${driver.id} cannot split one load over ${loadNodes.size} hosts",
                "name one load host, or use a driver that splits its load (k6)")
        }
        m.finish()
        return HostPlacement(app?.name ?: HostSpec.LOCAL, downstream?.name ?: HostSpec.LOCAL,
            load.map { it.name }.distinct().ifEmpty { listOf(HostSpec.LOCAL) })
    }

    companion object {
        private val KINDS = listOf("local", "netns", "ssh")
        private val NAME = Regex("[a-z][a-z0-9-]{0,19}")
        private val ADDRESS = Regex("[A-Za-z0-9][A-Za-z0-9.:-]{0,252}")
        private val USER = Regex("[a-z_][a-z0-9_.-]{0,31}")
        val MAX_RTT: Duration = Duration.ofSeconds(10)
        const val MIN_RATE = 1_000_000L
        const val MAX_RATE = 100_000_000_000L
        const val RATE_HINT = "a bandwidth is a number and a unit: 100mbit, 1gbit (bits per second, as tc writes them)"
        private val RATE = Regex("""^(\d+(?:\.\d+)?)\s*(kbit|mbit|gbit)$""")

        /** `100mbit` → 100,000,000 bits per second; null when not a bandwidth. */
        fun rate(text: String): Long? {
            val m = RATE.matchEntire(text.trim()) ?: return null
            val factor = when (m.groupValues[2]) { "kbit" -> 1e3; "mbit" -> 1e6; else -> 1e9 }
            return (m.groupValues[1].toDouble() * factor).takeIf { it.isFinite() && it < Long.MAX_VALUE }?.toLong()
        }
    }
}
