package stackbench.runner.host

import java.time.Duration

/** One namespace host's link: its namespace, the two ends of its veth pair, its address, and how the link is shaped. */
data class NetnsLink(
    val host: String,
    val namespace: String,
    /** The veth end on the bridge, in the root namespace. */
    val outer: String,
    /** The veth end inside the namespace. */
    val inner: String,
    val address: String,
    val rtt: Duration?,
    val rateBitsPerSecond: Long?,
)

/**
 * The network a run builds for its namespace hosts, as a value: a bridge in the root namespace holding the
 * subnet's first address (the runner reaches every namespace through it), and per host a namespace and a veth
 * pair, with the next addresses in turn. Every name starts with the run's tag (`sb<runner pid>`), so a later run
 * recognises what a killed one left ([Leftovers]). Pure: [setup], [shaping] and [teardown] are the `ip`/`tc`
 * commands, which [LabNetwork] runs.
 */
data class NetworkPlan(val tag: String, val subnet: Int, val links: List<NetnsLink>) {
    val bridge: String get() = "${tag}br"
    val gateway: String get() = "10.77.$subnet.1"

    fun setup(): List<List<String>> = buildList {
        add(listOf("ip", "link", "add", bridge, "type", "bridge"))
        add(listOf("ip", "addr", "add", "$gateway/24", "dev", bridge))
        add(listOf("ip", "link", "set", bridge, "up"))
        for (l in links) {
            add(listOf("ip", "netns", "add", l.namespace))
            add(listOf("ip", "link", "add", l.outer, "type", "veth", "peer", "name", l.inner))
            add(listOf("ip", "link", "set", l.inner, "netns", l.namespace))
            add(listOf("ip", "link", "set", l.outer, "master", bridge, "up"))
            add(listOf("ip", "-n", l.namespace, "addr", "add", "${l.address}/24", "dev", l.inner))
            add(listOf("ip", "-n", l.namespace, "link", "set", l.inner, "up"))
            add(listOf("ip", "-n", l.namespace, "link", "set", "lo", "up"))
            add(listOf("ip", "-n", l.namespace, "route", "add", "default", "via", gateway))
        }
    }

    /**
     * The queueing disciplines of every shaped link, on both of its ends (each direction leaves through one):
     * with [netem], a delay of half the round trip each way (and its rate); without, only a token bucket for
     * the rate, the delay being the relay's ([stackbench.runner.host.relay.DelayRelay]).
     */
    fun shaping(netem: Boolean): List<List<String>> = links.flatMap { l ->
        val qdisc = when {
            netem && l.rtt != null -> listOf("netem", "delay", "${l.rtt.toNanos() / 2_000}us") +
                (l.rateBitsPerSecond?.let { listOf("rate", "${it}bit") } ?: emptyList())
            l.rateBitsPerSecond != null -> tbf(l.rateBitsPerSecond)
            else -> return@flatMap emptyList()
        }
        listOf(
            listOf("tc", "qdisc", "add", "dev", l.outer, "root") + qdisc,
            listOf("tc", "-n", l.namespace, "qdisc", "add", "dev", l.inner, "root") + qdisc,
        )
    }

    /** Deletes everything [setup] made: a namespace's deletion takes its veth pair with it; the bridge goes last. */
    fun teardown(): List<List<String>> =
        links.map { listOf("ip", "netns", "delete", it.namespace) } + links.map { listOf("ip", "link", "delete", it.outer) } +
            listOf(listOf("ip", "link", "delete", bridge))

    /** The commands that end with the runner's death: for the [Watchdog]'s script, one per line. */
    fun teardownScript(): String = teardown().joinToString("\n") { c -> c.joinToString(" ") + " 2>/dev/null" }

    companion object {
        /** Host addresses start here (.1 is the bridge). */
        private const val FIRST_HOST = 2

        /** The run's tag for [runnerPid]. Link names must fit the kernel's 15 characters: `sb` + 7 digits + `h` + 2 digits. */
        fun tag(runnerPid: Long) = "sb$runnerPid"

        fun of(tag: String, hosts: List<stackbench.runner.suite.HostSpec.Netns>, takenSubnets: Set<Int>): NetworkPlan {
            require(hosts.size <= 99) { "at most 99 namespace hosts, not ${hosts.size}" }
            val subnet = (0..255).firstOrNull { it !in takenSubnets } ?: error("every subnet 10.77.0.0/16 is in use")
            val links = hosts.mapIndexed { i, h ->
                NetnsLink(h.name, "$tag-${h.name}", "${tag}h$i", "${tag}n$i", "10.77.$subnet.${FIRST_HOST + i}", h.rtt, h.rateBitsPerSecond)
            }
            return NetworkPlan(tag, subnet, links)
        }

        /** The third octets of the 10.77.K.0 subnets already on this machine, from `ip -4 -o addr` output. */
        fun subnetsIn(ipAddrOutput: String): Set<Int> =
            Regex("""\b10\.77\.(\d{1,3})\.\d{1,3}/""").findAll(ipAddrOutput).map { it.groupValues[1].toInt() }.toSet()

        /** A token bucket at [rate] bits/s whose burst holds 10 ms of it (at least 16 KiB, above one jumbo frame). */
        fun tbf(rate: Long): List<String> =
            listOf("tbf", "rate", "${rate}bit", "burst", "${maxOf(rate / 8 / 100, 16_384)}", "latency", "50ms")
    }
}

/**
 * What earlier runs left: the namespaces and links named with a run tag (`sb<pid>…`) whose runner is no longer
 * alive. Pure: [of] reads the names `ip netns list` and `ip -o link` print.
 */
data class Leftovers(val namespaces: List<String>, val links: List<String>) {
    val isEmpty: Boolean get() = namespaces.isEmpty() && links.isEmpty()

    fun commands(): List<List<String>> =
        namespaces.map { listOf("ip", "netns", "delete", it) } + links.map { listOf("ip", "link", "delete", it) }

    companion object {
        private val NAMESPACE = Regex("""^sb(\d+)-[a-z][a-z0-9-]*$""")
        private val LINK = Regex("""^sb(\d+)(br|h\d+|n\d+)$""")

        fun of(netnsList: String, linkList: String, alive: (Long) -> Boolean): Leftovers {
            val namespaces = netnsList.lines().map { it.substringBefore(' ').trim() }
                .filter { n -> NAMESPACE.matchEntire(n)?.let { !alive(it.groupValues[1].toLong()) } == true }
            // `ip -o link`: "7: sb12h0@if6: <...>"
            val links = linkList.lines().mapNotNull { Regex("""^\d+:\s+([^:@\s]+)""").find(it)?.groupValues?.get(1) }
                .filter { n -> LINK.matchEntire(n)?.let { !alive(it.groupValues[1].toLong()) } == true }
            return Leftovers(namespaces, links)
        }
    }
}
