package stackbench.runner.catalog

/** How a tool is found on this machine. */
sealed interface Detect {
    /**
     * An executable: a name with a slash is that file (`/usr/sbin/sshd`, `~/` for the user's home); a bare name is
     * looked for on PATH, then in [dirs] (where an installer puts it without touching PATH: `~/.cargo/bin`).
     */
    data class Executable(val names: List<String>, val dirs: List<String> = emptyList()) : Detect {
        /** Where it is looked for, for a message that says it is missing: `PATH and ~/.cargo/bin`, `/usr/sbin/sshd`. */
        val searched: String get() {
            val files = names.filter { '/' in it }
            val bare = names.any { '/' !in it }
            return (files + listOfNotNull("PATH".takeIf { bare }) + dirs.takeIf { bare }.orEmpty()).joinToString(", ")
        }

        /** Every file looked at, in order, given PATH and the user's home. */
        fun candidates(path: String?, userHome: String): List<String> {
            fun expand(p: String) = if (p == "~" || p.startsWith("~/")) userHome.trimEnd('/') + p.removePrefix("~") else p
            val searched = SearchPath.folders(path) + dirs.map(::expand)
            return names.flatMap { name -> if ('/' in name) listOf(expand(name)) else searched.map { "${it.trimEnd('/')}/$name" } }.distinct()
        }
    }

    /**
     * A load generator, found as the lab finds it (its local path, then PATH); one with a pinned version counts only at
     * that version (`.tools/bin/oha --version` must print 1.16.0): another release is built again.
     */
    data class Driver(val spec: DriverSpec) : Detect {
        /** Whether the tool's version line is the pinned release (any release when none is pinned). */
        fun matches(versionLine: String): Boolean = spec.version == null || releaseIn(versionLine) == spec.version

        companion object {
            private val RELEASE = Regex("""(?<![\d.])(\d+\.\d+\.\d+)(?![\d.])""")

            /** The first x.y.z in a version line: `oha 1.16.0` → 1.16.0, `k6 v1.8.1 (go1.25.1, linux/amd64)` → 1.8.1. */
            fun releaseIn(versionLine: String): String? = RELEASE.find(versionLine)?.value
        }
    }
}

/**
 * Something the lab or its tests need from outside the JDK: a load generator, a system tool, or a toolchain that
 * builds one. `doctor` checks every entry and `doctor --fix` installs them ([ToolCatalog]).
 */
data class Tool(
    val id: String,
    /** What needs it, one line, shown by `doctor`. */
    val neededBy: String,
    val detect: Detect,
    val install: Install,
    /**
     * Whether `run` needs it: `doctor` fails without it and `doctor --fix` installs it. Otherwise only some suites or
     * the tests do: `doctor` warns, `doctor --tests` fails, and `doctor --fix --tests` installs it.
     */
    val essential: Boolean,
    /** The release to install (a driver's pinned version); null: whatever the package manager has. */
    val version: String? = null,
) {
    override fun toString() = id
}

/**
 * Everything the lab and its tests need from outside the JDK, how each is found and how it is installed: pure data,
 * read by `doctor` (and `doctor --fix`), by `run` when it installs a missing load generator, and so by `.ci/run`.
 * A new system tool is one value here, listed in [all]; a new load generator is its [DriverCatalog] entry.
 */
object ToolCatalog {
    /** The PostgreSQL majors the lab runs, newest first: Debian 12's package installs 15. */
    val POSTGRES_MAJORS = listOf(17, 16, 15)

    /** The Rust toolchain, which builds oha; rustup puts it in `~/.cargo/bin` and may leave PATH alone. */
    val CARGO = Tool(
        "cargo", "builds oha into .tools (needed only while oha is missing or not the pinned release)",
        Detect.Executable(listOf("cargo"), dirs = listOf("~/.cargo/bin")),
        Install.Manual("install Rust with rustup (https://rustup.rs) or your distribution's `cargo` package"), essential = false,
    )

    /** The Go toolchain, which builds k6; the official archive unpacks to `/usr/local/go`. */
    val GO = Tool(
        "go", "builds k6 into .tools/bin (needed only while k6 is missing or not the pinned release)",
        Detect.Executable(listOf("go"), dirs = listOf("/usr/local/go/bin")),
        Install.Manual("install Go from https://go.dev/dl or your distribution's `golang` package"), essential = false,
    )

    val CHROMIUM = Tool(
        "chromium", "the report's browser test, and `report --screenshot`",
        Detect.Executable(listOf("chromium", "chromium-browser", "google-chrome")), Install.Apt("chromium"), essential = false,
    )

    /** iproute2's `ip` (and `tc`): network-namespace hosts. `/usr/sbin` is not on every user's PATH. */
    val IP = Tool(
        "ip", "network-namespace hosts (a suite's `hosts:`, an emulated round trip) and their tests",
        Detect.Executable(listOf("ip"), dirs = listOf("/usr/sbin", "/sbin")), Install.Apt("iproute2"), essential = false,
    )

    /** The ssh host tests start `/usr/sbin/sshd` in a namespace: that path, nothing else. */
    val SSHD = Tool(
        "sshd", "the ssh host tests (an sshd in a network namespace)",
        Detect.Executable(listOf("/usr/sbin/sshd")), Install.Apt("openssh-server"), essential = false,
    )

    val SSH = Tool(
        "ssh", "ssh hosts (a suite's `hosts:` with `ssh:`) and their tests",
        Detect.Executable(listOf("ssh")), Install.Apt("openssh-client"), essential = false,
    )

    /** util-linux's setpriv; without it (or too old for --pdeathsig) the run's watchdog alone ends what a killed run left. */
    val SETPRIV = Tool(
        "setpriv", "ends the runner's child processes with it, however it dies",
        Detect.Executable(listOf("/usr/bin/setpriv", "/bin/setpriv")), Install.Apt("util-linux"), essential = false,
    )

    /**
     * PostgreSQL, Debian's package (its binaries under /usr/lib/postgresql/<major>/bin, not on PATH): the database a
     * suite's `database:` starts beside the apps, and its test.
     */
    val POSTGRESQL = Tool(
        "postgresql", "the database of a suite's `database:` (started as the postgres user) and its tests",
        Detect.Executable(POSTGRES_MAJORS.map { "/usr/lib/postgresql/$it/bin/postgres" }), Install.Apt("postgresql"), essential = true,
    )

    /**
     * In the order `doctor` shows them: every load generator of [DriverCatalog] (a new one is listed without an entry
     * here), the toolchains that build them, then the system tools.
     */
    val all: List<Tool> = DriverCatalog.all.map(::of) + listOf(CARGO, GO, CHROMIUM, IP, SSHD, SSH, SETPRIV, POSTGRESQL)

    fun byId(id: String): Tool? = all.firstOrNull { it.id == id }

    /** The entry of a load generator: its driver entry says what needs it and how it is installed. */
    fun of(spec: DriverSpec): Tool = Tool(spec.id, spec.neededBy, Detect.Driver(spec), spec.install, spec.essential, spec.version)

    /** The toolchain that builds a tool installed this way; null when none does (apt, by hand). */
    fun toolchain(install: Install): Tool? = when (install) {
        is Install.Cargo -> CARGO
        is Install.Go -> GO
        is Install.Apt, is Install.Manual -> null
    }

    /** The apt packages that install [tools], each once, in order. */
    fun aptPackages(tools: List<Tool>): List<String> = tools.mapNotNull { (it.install as? Install.Apt)?.pkg }.distinct()

    /** The doctor command that installs [tool]: `--fix` for what `run` needs, `--fix --tests` for the rest. */
    fun fixCommand(tool: Tool): String = "./stackbench doctor --fix" + if (tool.essential) "" else " --tests"

    /**
     * What to say when [tool] must be built and its [toolchain] is not here: "oha is built with cargo, which is not
     * installed: install Rust with rustup (https://rustup.rs) or your distribution's `cargo` package, then run
     * ./stackbench doctor --fix".
     */
    fun toolchainMissing(tool: Tool, toolchain: Tool = toolchain(tool.install)!!): String =
        "${tool.id} is built with ${toolchain.id}, which is not installed: ${toolchain.install.hint}, then run ${fixCommand(tool)}"
}
