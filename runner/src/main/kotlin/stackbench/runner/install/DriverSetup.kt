package stackbench.runner.install

import stackbench.runner.catalog.SearchPath
import stackbench.runner.catalog.DriverSpec
import stackbench.runner.catalog.Install
import stackbench.runner.catalog.ToolCatalog
import stackbench.runner.load.DriverMissingException
import stackbench.runner.load.Drivers
import stackbench.runner.cell.ReadyDriver
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path

/**
 * Makes the load generators ready, installing a missing one where it can, as its catalog entry says ([ToolCatalog],
 * with the commands `doctor --fix` runs: [InstallPlan]): with cargo or `go install` into the project's tools folder
 * (pinned to the release whose output the parsers are tested on), with apt-get as root. Where it cannot, it stops with
 * the exact command to run, or says which toolchain to install first.
 */
class DriverSetup(private val home: Path, private val out: PrintStream) {
    private val cache = mutableMapOf<DriverSpec, ReadyDriver>()

    fun executable(kind: DriverSpec): Path? = Drivers.find(kind, home)

    /** The driver, ready; installs it first if [install] and it is missing. */
    @Synchronized
    fun ready(kind: DriverSpec, install: Boolean = true): ReadyDriver = cache.getOrPut(kind) {
        if (executable(kind) == null) {
            if (install) install(kind) else throw SetupFailed(missing(kind))
        }
        val located = try {
            Drivers.locate(kind, home)
        } catch (e: DriverMissingException) {
            throw SetupFailed(e.message!!)
        }
        ReadyDriver(Drivers.driver(kind), located.executable, located.versionLine)
    }

    fun missing(kind: DriverSpec) = "the load generator ${kind.id} is not installed; install it with: ${installCommand(kind)}"

    /** The command that installs [kind], as a user would type it. */
    fun installCommand(kind: DriverSpec) = when (val how = kind.install) {
        is Install.Cargo, is Install.Go -> InstallPlan.byHand(ToolCatalog.of(kind), ToolCatalog.toolchain(how)!!.id, home)
        is Install.Apt -> Install.Apt.command(listOf(how.pkg), isRoot())
        is Install.Manual -> how.hint
    }

    /** Installs [kind] as `doctor --fix` would (the same commands: [InstallPlan]), its output on this terminal. */
    private fun install(kind: DriverSpec) {
        val tool = ToolCatalog.of(kind)
        val steps = when (val how = kind.install) {
            is Install.Cargo, is Install.Go -> {
                val toolchain = ToolCatalog.toolchain(how)!!
                val at = ToolProbe(home).where(toolchain) ?: throw SetupFailed("the load generator ${ToolCatalog.toolchainMissing(tool, toolchain)}")
                listOf(InstallPlan.build(tool, at, home))
            }
            is Install.Apt -> {
                if (!isRoot() || onPath("apt-get") == null) throw SetupFailed(missing(kind))
                // the package lists first: a new machine has none, and `apt-get install` alone cannot find the package
                InstallPlan.aptSteps(listOf(tool), Privileges(root = true, sudo = false, aptGet = true))
            }
            is Install.Manual -> throw SetupFailed(missing(kind))
        }
        val minutes = steps.sumOf { it.minutes }
        out.println("stackbench: ${kind.id} is missing; installing it: ${steps.joinToString(" && ")}" + if (minutes > 0) " (about $minutes minutes the first time)" else "")
        for (step in steps) {
            val p = Installer.process(step).inheritIO().start()
            if (p.waitFor() != 0) throw SetupFailed("installing ${kind.id} failed (exit ${p.exitValue()}): $step; run it yourself: ${installCommand(kind)}")
        }
    }

    companion object {
        fun onPath(name: String): Path? = SearchPath.find(name)

        fun isRoot(): Boolean = runCatching { (Files.getAttribute(Path.of("/proc/self"), "unix:uid") as Int) == 0 }.getOrDefault(false)
    }
}

/** A load generator that is missing and could not be installed: a message the user can act on (exit 2, as bad input). */
class SetupFailed(message: String) : RuntimeException(message)
