package stackbench.runner.install

import stackbench.runner.catalog.Detect
import stackbench.runner.catalog.Install
import stackbench.runner.catalog.Tool
import stackbench.runner.catalog.ToolCatalog
import stackbench.runner.load.Drivers
import java.nio.file.Files
import java.nio.file.Path

/** What looking for a tool found: where it is (null: missing, or a driver at another release than its pinned one), and what to show. */
data class Found(val at: String?, val detail: String)

/** Looks for the catalog's tools on this machine, as their entries say ([Detect]); runs a driver's version flag. */
class ToolProbe(
    private val home: Path,
    private val path: String? = System.getenv("PATH"),
    private val userHome: String = System.getProperty("user.home"),
) {
    fun find(tool: Tool): Found = when (val d = tool.detect) {
        is Detect.Executable -> d.candidates(path, userHome).firstOrNull { runnable(Path.of(it)) }?.let { Found(it, it) }
            ?: Found(null, "not installed (looked in ${d.searched})")
        is Detect.Driver -> {
            val exe = Drivers.find(d.spec, home, path)
            if (exe == null) Found(null, "not installed (looked in ${d.spec.searched(home)})")
            else {
                val line = runCatching { Drivers.versionLine(d.spec, exe) }.getOrElse { e -> "does not run: ${e.message}" }
                if (d.matches(line)) Found(exe.toString(), "$line ($exe)")
                else Found(null, "$exe is not the pinned ${d.spec.version}: it printed \"$line\"")
            }
        }
    }

    fun where(tool: Tool): String? = find(tool).at

    private fun runnable(p: Path) = Files.isRegularFile(p) && Files.isExecutable(p)
}

/** `doctor`'s line for each catalog entry, from what was found: pure. */
object ToolChecks {
    /**
     * One check per entry of [catalog]. A missing entry fails `doctor` when `run` needs it, or with [tests] when
     * anything does; a missing toolchain fails only while something it must build is missing, and warns otherwise.
     */
    fun of(catalog: List<Tool>, found: (Tool) -> Found, tests: Boolean, home: Path): List<Check> = catalog.map { tool ->
        val f = found(tool)
        val what = "${f.detail} — ${tool.neededBy}"
        val wanted = tool.essential || tests
        when {
            f.at != null -> Check(tool.id, true, what, essential = wanted)
            tool.install is Install.Manual -> {
                val waiting = catalog.filter { ToolCatalog.toolchain(it.install) == tool && (it.essential || tests) && found(it).at == null }
                val then = waiting.firstOrNull { it.essential } ?: waiting.firstOrNull()
                Check(tool.id, false, what, tool.install.hint + (then?.let { ", then run ${ToolCatalog.fixCommand(it)}" } ?: ""), essential = waiting.isNotEmpty())
            }
            tool.install is Install.Apt -> Check(tool.id, false, what,
                "${ToolCatalog.fixCommand(tool)}   (or as root: ${tool.install.hint})", essential = wanted)
            else -> {
                val toolchain = ToolCatalog.toolchain(tool.install)!!
                val fix = if (found(toolchain).at == null) ToolCatalog.toolchainMissing(tool, toolchain)
                else "${ToolCatalog.fixCommand(tool)}   (or: ${InstallPlan.byHand(tool, toolchain.id, home)})"
                Check(tool.id, false, what, fix, essential = wanted)
            }
        }
    }
}
