package stackbench.runner.cli

import stackbench.runner.catalog.DriverSpec
import stackbench.runner.catalog.Install
import stackbench.runner.load.DriverMissingException
import stackbench.runner.load.Drivers
import stackbench.runner.run.ReadyDriver
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path

/**
 * Makes the load generators ready, installing a missing one where it can, as its catalog entry says: with
 * cargo or `go install` into the project's tools folder (pinned to the release whose output the parsers are tested on), with
 * apt-get as root. Where it cannot, it stops with the exact command to run.
 */
class DriverSetup(private val home: Path, private val out: PrintStream) {
    private val cache = mutableMapOf<DriverSpec, ReadyDriver>()

    fun executable(kind: DriverSpec): Path? = Drivers.find(kind, home)

    fun version(kind: DriverSpec, exe: Path): String = runCatching { Drivers.versionLine(kind, exe) }.getOrDefault("unknown")

    /** The driver, ready; installs it first if [install] and it is missing. */
    @Synchronized
    fun ready(kind: DriverSpec, install: Boolean = true): ReadyDriver = cache.getOrPut(kind) {
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

    fun missing(kind: DriverSpec) = "the load generator ${kind.id} is not installed; install it with: ${installCommand(kind)}"

    fun installCommand(kind: DriverSpec) = when (val how = kind.install) {
        is Install.Cargo -> "cargo install ${how.crate} --version ${kind.version} --locked --root ${home.resolve(".tools")}"
        is Install.Go -> "GOBIN=${home.resolve(".tools/bin")} go install ${how.module}@v${how.version}"
        is Install.Apt -> if (isRoot()) "apt-get install -y ${how.pkg}" else "sudo apt-get install -y ${how.pkg}"
    }

    private fun install(kind: DriverSpec) {
        val how = kind.install
        val command = when (how) {
            is Install.Cargo -> {
                val cargo = onPath("cargo") ?: Path.of(System.getProperty("user.home"), ".cargo/bin/cargo").takeIf { Files.isExecutable(it) }
                    ?: throw BadInput("${missing(kind)}\n  (that needs cargo: https://rustup.rs)")
                listOf(cargo.toString(), "install", how.crate, "--version", kind.version!!, "--locked", "--root", home.resolve(".tools").toString())
            }
            is Install.Go -> {
                val go = onPath("go") ?: Path.of("/usr/local/go/bin/go").takeIf { Files.isExecutable(it) }
                    ?: throw BadInput("${missing(kind)}\n  (that needs Go: https://go.dev/dl)")
                listOf(go.toString(), "install", "${how.module}@v${how.version}")
            }
            is Install.Apt -> {
                if (!isRoot() || onPath("apt-get") == null) throw BadInput(missing(kind))
                listOf("apt-get", "install", "-y", how.pkg)
            }
        }
        out.println("stackbench: ${kind.id} is missing; installing it: ${command.joinToString(" ")}" +
            when (how) {
                is Install.Cargo -> " (about ${how.minutes} minutes the first time)"
                is Install.Go -> " (about ${how.minutes} minutes the first time)"
                is Install.Apt -> ""
            })
        val builder = ProcessBuilder(command).inheritIO()
        if (how is Install.Go) builder.environment()["GOBIN"] = home.resolve(".tools/bin").toString()
        val p = builder.start()
        if (p.waitFor() != 0) throw BadInput("installing ${kind.id} failed (exit ${p.exitValue()}); run it yourself: ${installCommand(kind)}")
    }

    companion object {
        fun onPath(name: String): Path? = System.getenv("PATH").orEmpty().split(':').filter { it.isNotEmpty() }
            .map { Path.of(it, name) }.firstOrNull { Files.isExecutable(it) }

        fun isRoot(): Boolean = runCatching { (Files.getAttribute(Path.of("/proc/self"), "unix:uid") as Int) == 0 }.getOrDefault(false)
    }
}
