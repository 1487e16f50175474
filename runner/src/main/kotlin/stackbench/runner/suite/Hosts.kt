package stackbench.runner.suite

import java.time.Duration

/**
 * A host a suite names (`hosts:`): where roles of a cell can run. [Local] is this machine (the default, and
 * the built-in host `local`); [Netns] a network namespace the lab creates on this machine, with its own
 * address, and optionally an emulated round-trip time and a link bandwidth; [Ssh] another machine reached
 * over SSH with a key.
 */
sealed interface HostSpec {
    val name: String
    val kind: String

    data class Local(override val name: String) : HostSpec {
        override val kind get() = "local"
    }

    data class Netns(
        override val name: String,
        /** The round-trip time added between this namespace and the lab's bridge; null: none. */
        val rtt: Duration? = null,
        /** The link's bandwidth in bits per second (tbf on both ends of its link); null: unlimited. */
        val rateBitsPerSecond: Long? = null,
    ) : HostSpec {
        override val kind get() = "netns"
    }

    data class Ssh(
        override val name: String,
        val address: String,
        val user: String = "root",
        /** The private key to log in with; null: ssh's own defaults (~/.ssh, the agent). */
        val key: String? = null,
        val port: Int = 22,
        /** The CPUs of that machine the roles placed there are pinned to; empty: any. */
        val cpus: List<Int> = emptyList(),
        /** The Java launcher there, for a JVM role (the downstream service): a path, or `java` on the PATH. */
        val java: String = "java",
        /** A known_hosts file of the lab's own for this host; null: ssh's own (an unknown host accepted on first use). */
        val knownHosts: String? = null,
    ) : HostSpec {
        override val kind get() = "ssh"
    }

    companion object {
        /** The built-in host: this machine. */
        const val LOCAL = "local"
    }
}

/** Which host runs which role of every cell: the app, the downstream service, and the load generators. */
data class HostPlacement(val app: String = HostSpec.LOCAL, val downstream: String = HostSpec.LOCAL, val load: List<String> = listOf(HostSpec.LOCAL))

/** The suite's hosts and where each role runs; [LOCAL] (everything on this machine) when the suite names none. */
data class HostsSpec(val hosts: List<HostSpec>, val placement: HostPlacement) {
    fun byName(name: String): HostSpec = hosts.first { it.name == name }

    val app: HostSpec get() = byName(placement.app)
    val downstream: HostSpec get() = byName(placement.downstream)
    val load: List<HostSpec> get() = placement.load.map(::byName)

    /** True when every role runs on this machine's own network stack, as before hosts existed. */
    val allLocal: Boolean get() = (listOf(app, downstream) + load).all { it is HostSpec.Local }

    companion object {
        val LOCAL = HostsSpec(listOf(HostSpec.Local(HostSpec.LOCAL)), HostPlacement())
    }
}
