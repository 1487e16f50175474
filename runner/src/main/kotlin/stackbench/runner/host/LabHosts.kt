package stackbench.runner.host

import stackbench.runner.results.HostRecord
import stackbench.runner.suite.HostSpec
import stackbench.runner.suite.HostsSpec

/** The host of each role of a cell: the app's, the downstream service's, and the load generators'. */
data class RoleHosts(val app: Host, val downstream: Host, val load: List<Host>) {
    /** The host a single-instance load driver runs on (the first load host). */
    val driver: Host get() = load.first()

    companion object {
        /** Every role on [host]. */
        fun single(host: Host) = RoleHosts(host, host, listOf(host))
    }
}

/**
 * The hosts of a run, opened from the suite's [HostsSpec]: namespaces on a fresh bridge ([LabNetwork]), ssh
 * hosts, this machine. [close] stops the relays, removes the network and the remote folders, on every path.
 */
class LabHosts private constructor(
    val spec: HostsSpec,
    private val byName: Map<String, Host>,
    val network: LabNetwork?,
) : AutoCloseable {
    val roles = RoleHosts(byName.getValue(spec.placement.app), byName.getValue(spec.placement.downstream), spec.placement.load.map(byName::getValue))

    fun describe(): List<HostRecord> = spec.hosts.mapNotNull { s ->
        val roles = buildList {
            if (spec.placement.app == s.name) add("app")
            if (spec.placement.downstream == s.name) add("downstream")
            if (s.name in spec.placement.load) add("load")
        }
        if (roles.isEmpty() && s.name == HostSpec.LOCAL) return@mapNotNull null
        val host = byName.getValue(s.name)
        when (s) {
            is HostSpec.Local -> HostRecord(s.name, s.kind, host.address, roles)
            is HostSpec.Netns -> HostRecord(s.name, s.kind, host.address, roles, s.rtt?.toNanos()?.div(1e6), s.rateBitsPerSecond,
                (host as NetnsHost).rttMethod, host.link.namespace)
            is HostSpec.Ssh -> HostRecord(s.name, s.kind, host.address, roles, detail = "${s.user}@${s.address}:${s.port}")
        }
    }

    /** The CPU time of the relays of the app's host that have stopped so far, in ms (null without relays). */
    fun stoppedRelaysCpuMs(): Double? = (roles.app as? NetnsHost)?.takeIf { it.relayed }?.stoppedRelaysCpuMs()

    @Volatile private var closed = false

    override fun close() {
        if (closed) return
        closed = true
        byName.values.filterIsInstance<AutoCloseable>().forEach { runCatching { it.close() } }
        network?.close()
    }

    companion object {
        /**
         * Opens the hosts of [spec]: namespaces tagged [tag] (see [NetworkPlan.tag]); relays started with
         * [relayFlags]. Fails, leaving nothing behind, if a host cannot be made.
         */
        fun open(spec: HostsSpec, registry: ProcessRegistry, tag: String, relayFlags: List<String> = emptyList()): LabHosts {
            val netns = spec.hosts.filterIsInstance<HostSpec.Netns>()
            val network = if (netns.isEmpty()) null else LabNetwork.open(NetworkPlan.of(tag, netns, LabNetwork.takenSubnets()))
            if (network != null && !network.netem) {
                // a relay delays the connections *to* a host's services: a host that serves nothing would add nothing
                val idle = netns.filter { it.rtt != null && it.name != spec.placement.app && it.name != spec.placement.downstream }
                if (idle.isNotEmpty()) {
                    network.close()
                    error("this kernel has no netem, so a round trip (rtt) is emulated by a relay in front of the services on a host; " +
                        "${idle.joinToString { it.name }} runs no service (no app, no downstream), so its rtt would add nothing: put the rtt on the app's host")
                }
            }
            val made = mutableMapOf<String, Host>()
            val local = localAddress(network, spec.hosts.filterIsInstance<HostSpec.Ssh>().firstOrNull())
            try {
                for (s in spec.hosts) {
                    made[s.name] = when (s) {
                        is HostSpec.Local -> LocalHost(registry, local, s.name)
                        is HostSpec.Netns -> NetnsHost(s.name, network!!.plan.links.first { it.host == s.name }, registry, relayed = !network.netem && s.rtt != null, relayFlags)
                        is HostSpec.Ssh -> SshHost.open(s, registry, tag, s.knownHosts?.let { java.nio.file.Path.of(it) })
                    }
                }
            } catch (e: Exception) {
                made.values.filterIsInstance<AutoCloseable>().forEach { runCatching { it.close() } }
                network?.close()
                throw e
            }
            return LabHosts(spec, made, network)
        }

        /**
         * The address of this machine's roles: loopback when every role is here; the bridge's address when there are
         * namespaces (they reach this machine through it); otherwise the address this machine's route to the first
         * ssh host leaves from (`ip route get`).
         */
        private fun localAddress(network: LabNetwork?, ssh: HostSpec.Ssh?): String {
            if (network != null) return network.plan.gateway
            if (ssh == null) return "127.0.0.1"
            val resolved = runCatching { java.net.InetAddress.getByName(ssh.address).hostAddress }.getOrElse { ssh.address }
            val route = Commands.run(listOf("ip", "route", "get", resolved)).second
            return Regex("""\bsrc\s+(\S+)""").find(route)?.groupValues?.get(1)
                ?: error("no route from this machine to ssh host ${ssh.name} (${ssh.address}): ${route.trim()}")
        }
    }
}
