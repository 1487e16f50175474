package stackbench.runner.install

import stackbench.runner.catalog.Install
import stackbench.runner.catalog.Tool
import stackbench.runner.catalog.ToolCatalog
import java.nio.file.Path

/** One command of an install, with what it installs. */
data class Step(val tools: List<String>, val command: List<String>, val env: Map<String, String> = emptyMap(), val minutes: Int = 0) {
    /** As a shell line: `GOBIN=/lab/.tools/bin go install go.k6.io/k6@v1.8.1`. */
    override fun toString() = (env.map { (k, v) -> "$k=$v" } + command).joinToString(" ")
}

/** What an install may do on this machine: run apt-get (as root, or through sudo). */
data class Privileges(val root: Boolean, val sudo: Boolean, val aptGet: Boolean)

/**
 * What `doctor --fix` runs, worked out from what is missing without running anything: one `apt-get update` and one
 * `apt-get install` of every missing package, then the builds (cargo, go) into `.tools`, which run at the same
 * time; and for what it cannot install (no toolchain, no root, no apt-get), what to do instead.
 */
data class InstallPlan(
    /** `apt-get update`, then `apt-get install` of every missing package; empty when none is (or apt-get cannot run). */
    val apt: List<Step>,
    /** The builds, one process each, run concurrently. */
    val builds: List<Step>,
    /** What cannot be installed here, and what to do instead. */
    val messages: List<String>,
    /** The missing tools this plan leaves missing. */
    val left: List<Tool>,
) {
    val isEmpty: Boolean get() = apt.isEmpty() && builds.isEmpty()

    /** The tools the plan installs. */
    val installs: List<String> get() = (apt.lastOrNull()?.tools.orEmpty() + builds.flatMap { it.tools })

    companion object {
        /**
         * The plan for [catalog]: [where] says where a tool is (null: missing, or a driver at another release than its
         * pinned one). Plain `--fix` installs the essential entries (what `run` needs); with [tests], every entry.
         * A toolchain (cargo, go) is never installed, only asked for when something it builds is missing.
         */
        fun of(catalog: List<Tool>, where: (Tool) -> String?, tests: Boolean, privileges: Privileges, home: Path, cache: Path = defaultCache()): InstallPlan {
            val missing = catalog.filter { (it.essential || tests) && it.install !is Install.Manual && where(it) == null }
            val messages = mutableListOf<String>()
            val left = mutableListOf<Tool>()

            val apt = missing.filter { it.install is Install.Apt }
            val packages = ToolCatalog.aptPackages(apt)
            val aptSteps = when {
                apt.isEmpty() -> emptyList()
                !privileges.aptGet -> {
                    messages += "${names(apt)} ${if (apt.size == 1) "is" else "are"} installed with apt-get, which this machine does not have: " +
                        "install ${packages.joinToString(" ")} with its package manager"
                    left += apt
                    emptyList()
                }
                !privileges.root && !privileges.sudo -> {
                    messages += "${names(apt)} need${if (apt.size == 1) "s" else ""} apt-get as root: run ./stackbench doctor --fix${if (tests) " --tests" else ""} as root, " +
                        "or as root: apt-get update && ${Install.Apt.command(packages, root = true)}"
                    left += apt
                    emptyList()
                }
                else -> aptSteps(apt, privileges)
            }

            val builds = missing.filter { it.install is Install.Cargo || it.install is Install.Go }.mapNotNull { tool ->
                val toolchain = ToolCatalog.toolchain(tool.install)!!
                val at = where(toolchain)
                if (at == null) {
                    messages += ToolCatalog.toolchainMissing(tool, toolchain)
                    left += tool
                    null
                } else build(tool, at, home, cache)
            }
            return InstallPlan(aptSteps, builds, messages, left)
        }

        /** `apt-get update`, then one `apt-get install` of every package of [tools] (through sudo when not root). */
        fun aptSteps(tools: List<Tool>, privileges: Privileges): List<Step> {
            val ids = tools.map { it.id }
            val run = if (privileges.root) emptyList() else listOf("sudo", "env", "DEBIAN_FRONTEND=noninteractive")
            val env = if (privileges.root) mapOf("DEBIAN_FRONTEND" to "noninteractive") else emptyMap()
            return listOf(
                Step(ids, run + listOf("apt-get", "update", "-qq"), env),
                Step(ids, run + listOf("apt-get", "install", "-y", "-qq") + ToolCatalog.aptPackages(tools), env),
            )
        }

        /**
         * The build of [tool] with its toolchain at [toolchain] (a path, or `cargo` for a message), pinned to its
         * release, into the project's `.tools` under [home]. cargo's `--force` builds it again when another release (or
         * a lost binary) is there; `go install` always does. Both keep what they compiled in the user's cache (Go's own
         * build cache; cargo's target folder in [cache], `~/.cache/stackbench/cargo-target`), so a new clone on a machine
         * that built oha once installs it in seconds, not the 6-8 minutes of a cold build.
         */
        fun build(tool: Tool, toolchain: String, home: Path, cache: Path = defaultCache()): Step = when (val how = tool.install) {
            is Install.Cargo -> Step(
                listOf(tool.id),
                listOf(toolchain, "install", how.crate, "--version", how.version, "--locked", "--force", "--root", home.resolve(".tools").toString()),
                env = mapOf(CARGO_CACHE to cache.resolve("cargo-target").toString()),
                minutes = how.minutes,
            )
            is Install.Go -> Step(
                listOf(tool.id), listOf(toolchain, "install", "${how.module}@v${how.version}"),
                env = mapOf("GOBIN" to home.resolve(".tools/bin").toString()), minutes = how.minutes,
            )
            else -> throw IllegalArgumentException("${tool.id} is not built: ${how.hint}")
        }

        private fun names(tools: List<Tool>) = tools.joinToString(", ") { it.id }

        /** [build] as a person would type it: without the lab's build cache. */
        fun byHand(tool: Tool, toolchain: String, home: Path): String = build(tool, toolchain, home).let { it.copy(env = it.env - CARGO_CACHE) }.toString()

        /** The variable that keeps cargo's build in the user's cache. */
        const val CARGO_CACHE = "CARGO_TARGET_DIR"

        /** `$XDG_CACHE_HOME/stackbench`, else `~/.cache/stackbench`. */
        fun defaultCache(): Path = (System.getenv("XDG_CACHE_HOME")?.takeIf { it.isNotBlank() }?.let { Path.of(it) }
            ?: Path.of(System.getProperty("user.home"), ".cache")).resolve("stackbench")
    }
}
