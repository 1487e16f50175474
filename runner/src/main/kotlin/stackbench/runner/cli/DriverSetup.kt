package stackbench.runner.cli

import stackbench.runner.load.DriverMissingException
import stackbench.runner.load.Drivers
import stackbench.runner.run.ReadyDriver
import stackbench.runner.suite.DriverKind
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path

/**
 * Makes the load generators ready, installing a missing one where it can: oha with cargo into the
 * project's tools folder (pinned to the release whose output the parsers are tested on), wrk with apt-get
 * as root. Where it cannot, it stops with the exact command to run.
 */
class DriverSetup(private val home: Path, private val out: PrintStream) {
    private val cache = mutableMapOf<DriverKind, ReadyDriver>()

    fun executable(kind: DriverKind): Path? = Drivers.find(kind, home)

    fun version(kind: DriverKind, exe: Path): String = runCatching { Drivers.versionLine(kind, exe) }.getOrDefault("unknown")

    /** The driver, ready; installs it first if [install] and it is missing. */
    @Synchronized
    fun ready(kind: DriverKind, install: Boolean = true): ReadyDriver = cache.getOrPut(kind) {
        if (executable(kind) == null) {
            if (install) install(kind) else throw BadInput(missing(kind))
        }
        val located = try {
            Drivers.locate(kind, home)
        } catch (e: DriverMissingException) {
            throw BadInput(e.message!!)
        }
        ReadyDriver(Drivers.driver(kind), located.executable, located.versionLine)
    }

    fun missing(kind: DriverKind) = "the load generator ${kind.id} is not installed; install it with: ${installCommand(kind)}"

    fun installCommand(kind: DriverKind) = when (kind) {
        DriverKind.OHA -> "cargo install oha --version $OHA_VERSION --locked --root ${home.resolve(".tools")}"
        DriverKind.WRK -> if (isRoot()) "apt-get install -y wrk" else "sudo apt-get install -y wrk"
    }

    private fun install(kind: DriverKind) {
        val command = when (kind) {
            DriverKind.OHA -> {
                val cargo = onPath("cargo") ?: Path.of(System.getProperty("user.home"), ".cargo/bin/cargo").takeIf { Files.isExecutable(it) }
                    ?: throw BadInput("${missing(kind)}\n  (that needs cargo: https://rustup.rs)")
                listOf(cargo.toString(), "install", "oha", "--version", OHA_VERSION, "--locked", "--root", home.resolve(".tools").toString())
            }
            DriverKind.WRK -> {
                if (!isRoot() || onPath("apt-get") == null) throw BadInput(missing(kind))
                listOf("apt-get", "install", "-y", "wrk")
            }
        }
        out.println("stackbench: ${kind.id} is missing; installing it: ${command.joinToString(" ")}" +
            if (kind == DriverKind.OHA) " (about 6 minutes the first time)" else "")
        val p = ProcessBuilder(command).inheritIO().start()
        if (p.waitFor() != 0) throw BadInput("installing ${kind.id} failed (exit ${p.exitValue()}); run it yourself: ${installCommand(kind)}")
    }

    companion object {
        /** The oha release the parsers are tested against. */
        const val OHA_VERSION = "1.16.0"

        fun onPath(name: String): Path? = System.getenv("PATH").orEmpty().split(':').filter { it.isNotEmpty() }
            .map { Path.of(it, name) }.firstOrNull { Files.isExecutable(it) }

        fun isRoot(): Boolean = runCatching { (Files.getAttribute(Path.of("/proc/self"), "unix:uid") as Int) == 0 }.getOrDefault(false)
    }
}
