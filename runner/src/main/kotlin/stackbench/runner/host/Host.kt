package stackbench.runner.host

import stackbench.runner.isolation.Confinement
import java.nio.file.Path

/** What to start on a host: the command, where its output goes, and how it is confined. */
data class LaunchSpec(
    val role: String,
    val command: List<String>,
    val log: Path,
    /** Standard error on its own, or null to merge it into [log]. */
    val stderr: Path? = null,
    val confinement: Confinement = Confinement.none(),
    val env: Map<String, String> = emptyMap(),
    val workDir: Path? = null,
)

/**
 * Where a role of a cell runs: this machine ([LocalHost]), a network namespace the lab made ([NetnsHost]), or
 * another machine ([SshHost]). Roles are started through their host and addressed by its [address], never by a
 * fixed address.
 */
interface Host {
    val name: String

    /** `local`, `netns` or `ssh`, as the suite names kinds of host. */
    val kind: String get() = "local"

    /** The address other roles reach this host's services at. */
    val address: String

    /** The address a service on this host binds to: [address], or 127.0.0.1 when a relay stands in front of it ([expose]). */
    val bindAddress: String get() = address

    fun launch(spec: LaunchSpec): ChildProcess

    /** A port that is free for a service on this host (in its own network stack). */
    fun freePort(): Int

    /**
     * Makes a service listening on [bindAddress]:[port] reachable at [address]:[port]; with [delayed], through the
     * host's emulated round trip. A no-op (an [Exposure] with nothing to close) unless a relay is needed; the
     * relay runs on [cpus] and logs to [log]. Close it when the service stops. With a relay, [listenPort] may differ
     * from [port] (a second, undelayed way in for the lab's own calls).
     */
    fun expose(port: Int, delayed: Boolean, cpus: List<Int>, log: Path, listenPort: Int = port): Exposure = Exposure.DIRECT

    /** The path at which a file of this machine (a jar, a tool) is found on this host: itself, or a copy there. */
    fun stage(file: Path): String = file.toString()

    /** The Java launcher on this host for a role this machine would start with [local]. */
    fun java(local: Path): String = local.toString()
}

/** What stands between a service and its clients: nothing ([DIRECT]) or a delay relay, stopped by [close]. */
interface Exposure : AutoCloseable {
    /** The relay's CPU time so far, in ms; null when there is no relay. */
    fun cpuMs(): Double?

    override fun close()

    companion object {
        val DIRECT = object : Exposure {
            override fun cpuMs(): Double? = null
            override fun close() {}
        }
    }
}

/** This machine, its loopback address: every role as before hosts existed. */
class LocalHost(
    private val registry: ProcessRegistry,
    override val address: String = "127.0.0.1",
    override val name: String = "local",
) : Host {

    override fun launch(spec: LaunchSpec): ChildProcess = Launch.start(registry, spec, spec.command)

    private val ports = if (address == "127.0.0.1") ListenPorts.LOOPBACK else ListenPorts(isFree = ListenPorts.bindable(address))

    override fun freePort(): Int = ports.next()
}

/** Starting a local process the one way the lab does: confined, tied to the runner's life, registered. */
internal object Launch {
    /** Starts [command] (the spec's command, possibly prefixed, e.g. by nsenter) inside the spec's confinement. */
    fun start(registry: ProcessRegistry, spec: LaunchSpec, command: List<String>): ChildProcess {
        java.nio.file.Files.createDirectories(spec.log.parent)
        // `${'$'}{env:NAME}` values go into the process's argv and environment only, never into the spec the lab records
        val builder = ProcessBuilder(ParentDeath.wrap(spec.confinement.wrap(command.map { stackbench.runner.suite.Secrets.expand(it) })))
            .redirectOutput(spec.log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(java.io.File("/dev/null")))
        if (spec.stderr == null) builder.redirectErrorStream(true) else builder.redirectError(spec.stderr.toFile())
        spec.workDir?.let { builder.directory(it.toFile()) }
        spec.env.forEach { (k, v) -> builder.environment()[k] = stackbench.runner.suite.Secrets.expand(v) }
        val startNanos = System.nanoTime()
        val child = ChildProcess(spec.role, builder.start(), spec.log, registry, startNanos)
        registry.remember(child)
        return child
    }
}
