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
 * Where a role of a cell runs. Today every host is this machine; a host could later be a network
 * namespace or another machine. Roles are addressed through their host, never by a fixed address.
 */
interface Host {
    val name: String

    /** The address other roles reach this host's services at. */
    val address: String

    fun launch(spec: LaunchSpec): ChildProcess
}

class LocalHost(private val registry: ProcessRegistry, override val address: String = "127.0.0.1") : Host {
    override val name = "local"

    override fun launch(spec: LaunchSpec): ChildProcess {
        java.nio.file.Files.createDirectories(spec.log.parent)
        val builder = ProcessBuilder(ParentDeath.wrap(spec.confinement.wrap(spec.command)))
            .redirectOutput(spec.log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(java.io.File("/dev/null")))
        if (spec.stderr == null) builder.redirectErrorStream(true) else builder.redirectError(spec.stderr.toFile())
        spec.workDir?.let { builder.directory(it.toFile()) }
        builder.environment().putAll(spec.env)
        val startNanos = System.nanoTime()
        val child = ChildProcess(spec.role, builder.start(), spec.log, registry, startNanos)
        registry.remember(child)
        return child
    }
}
