package stackbench.runner.host

import stackbench.runner.host.relay.DelayRelay
import stackbench.runner.isolation.Confinement
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.atomic.DoubleAdder

/**
 * A network namespace of this machine, made by the run's [LabNetwork]: its own address on the lab's bridge, its
 * own network stack and ports, the same kernel, CPUs and cgroups. A process starts in it through `nsenter --net`
 * (which, unlike `ip netns exec`, keeps the mount namespace, so the cgroup-joining shell still sees
 * /sys/fs/cgroup); the confinement and [ParentDeath] wrap the nsenter, which execs, so the pid is the role's.
 *
 * With [relayed], the round trip is emulated by a [DelayRelay] per exposed service: the service binds 127.0.0.1
 * in the namespace and the relay listens on the namespace's address at the same port.
 */
class NetnsHost(
    override val name: String,
    val link: NetnsLink,
    private val registry: ProcessRegistry,
    val relayed: Boolean,
    /** Extra JVM flags for the relay processes: the run's marker, so the watchdog finds them. */
    private val relayFlags: List<String> = emptyList(),
) : Host {
    override val kind get() = "netns"
    override val address: String get() = link.address
    override val bindAddress: String get() = if (relayed) "127.0.0.1" else link.address

    /** How the round trip is emulated: `netem`, `relay`, or null when this host has none. */
    val rttMethod: String? get() = if (link.rtt == null) null else if (relayed) "relay" else "netem"

    private val ports = ListenPorts(isFree = { true })
    private val relayCpu = DoubleAdder()

    /** The CPU time of this host's relays that have stopped, in ms. */
    fun stoppedRelaysCpuMs(): Double = relayCpu.sum()

    override fun launch(spec: LaunchSpec): ChildProcess =
        Launch.start(registry, spec, listOf(NSENTER, "--net=/run/netns/${link.namespace}") + spec.command)

    /** Only the lab's services listen in this namespace: a port is free if the lab has not handed it out before. */
    override fun freePort(): Int = ports.next()

    override fun expose(port: Int, delayed: Boolean, cpus: List<Int>, log: Path, listenPort: Int): Exposure {
        if (!relayed) return Exposure.DIRECT
        val oneWay = if (delayed && link.rtt != null) link.rtt.dividedBy(2) else Duration.ZERO
        val command = listOf(javaOfRunner(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=${cpus.size.coerceAtLeast(1)}") + relayFlags +
            listOf("-cp", System.getProperty("java.class.path"), DelayRelay::class.java.name + "Kt") +
            DelayRelay.args(link.address, listenPort, "127.0.0.1", port, oneWay)
        val child = launch(LaunchSpec("relay", command, log, confinement = Confinement.pinned(cpus)))
        val deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos()
        while (!runCatching { Files.readString(log) }.getOrDefault("").contains(DelayRelay.READY)) {
            if (!child.isAlive() || System.nanoTime() > deadline) {
                child.stop(Duration.ofSeconds(1))
                throw IllegalStateException("the delay relay for port $port on host $name did not start: ${child.logTail(10).joinToString(" | ")}")
            }
            Thread.sleep(20)
        }
        return object : Exposure {
            override fun cpuMs(): Double? = child.process.toHandle().info().totalCpuDuration().map { it.toNanos() / 1e6 }.orElse(null)

            override fun close() {
                cpuMs()?.let { relayCpu.add(it) }
                child.stop(Duration.ofSeconds(1))
            }
        }
    }

    companion object {
        const val NSENTER = "nsenter"

        private fun javaOfRunner(): String = Path.of(System.getProperty("java.home"), "bin", "java").toString()
    }
}
