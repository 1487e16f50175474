package stackbench.runner.catalog

/** The shapes of load a suite can ask for (`model: closed`, `model: open`, `find: capacity`, `model: scenario`). */
enum class LoadModelKind(val id: String) { CLOSED("closed"), OPEN("open"), CAPACITY("capacity"), SCENARIO("scenario") }

/** How a missing tool is installed (a load generator, a system tool, a toolchain: [ToolCatalog]). */
sealed interface Install {
    /** The command (or the instructions) that installs it, for a message that says it is missing. */
    val hint: String

    /** With cargo into the project's `.tools` folder, at the entry's pinned version; it takes [minutes] the first time. */
    data class Cargo(val crate: String, val version: String, val minutes: Int) : Install {
        override val hint get() = "cargo install $crate --version $version --locked --root .tools"
    }

    /** With `go install` from the Go module proxy into the project's `.tools/bin`, at the entry's pinned version; [minutes] the first time. */
    data class Go(val module: String, val version: String, val minutes: Int) : Install {
        override val hint get() = "GOBIN=\$PWD/.tools/bin go install $module@v$version"
    }

    /** With apt-get, as root. */
    data class Apt(val pkg: String) : Install {
        override val hint get() = command(listOf(pkg), root = true)

        companion object {
            /** The one command line that installs [packages] with apt-get: as root, or through sudo. */
            fun command(packages: List<String>, root: Boolean): String = (if (root) "" else "sudo ") + "apt-get install -y " + packages.joinToString(" ")
        }
    }

    /** By hand: the lab does not install it (a toolchain); [how] says how. */
    data class Manual(val how: String) : Install {
        override val hint get() = how
    }
}

/**
 * A load generator the lab can drive: everything about it but its adapter's command line and output parser.
 * Suite reading, `doctor`, setup and the load package read it; adding a driver is one [DriverCatalog] entry and
 * its adapter, `load/<Id>Driver.kt` (`oha` → `OhaDriver`), which the load package finds by that name.
 */
data class DriverSpec(
    /** How suites, results and the command line name it: `driver: oha`. */
    val id: String,
    /** The release the adapter's parser is tested against, installed by [install]; null: whatever is installed. */
    val version: String?,
    val install: Install,
    /** Where it is looked for before PATH, relative to the project's home (`.tools/bin/oha`); null: PATH only. */
    val localPath: String?,
    /** The flag that makes it print its version (`--version`, `-v`). */
    val versionFlag: String,
    /** The load shapes it can drive. */
    val models: Set<LoadModelKind>,
    /** Whether it can send a fixed number of requests (`requests:`) rather than load for a duration. */
    val countedLength: Boolean,
    /** Whether it can split one load over several instances (k6's execution segments), `instances:` in a suite. */
    val splits: Boolean = false,
    /** What needs it, one line, shown by `doctor`. */
    val neededBy: String = "suites with `driver: $id` and their tests",
    /** Whether `run` needs it (the default driver): `doctor` fails without it and `doctor --fix` installs it; otherwise it only warns, and `--fix --tests` installs it. */
    val essential: Boolean,
    /** The fed and mixed requests it sends (`feed:`, `mix:` of a declared endpoint), and why not the rest. */
    val traffic: TrafficSupport = TrafficSupport(why = mapOf(TrafficSupport.FEED to "it has no way to vary its requests", TrafficSupport.MIX to "it sends one request")),
) {
    /**
     * How to install it, for a message that says it is missing: the command, and for a build the doctor command
     * that runs it (`doctor --fix` installs what `run` needs, `--fix --tests` everything).
     */
    val hint: String get() = when (install) {
        is Install.Cargo, is Install.Go -> "${install.hint}   (or: ./stackbench doctor --fix${if (essential) "" else " --tests"})"
        else -> install.hint
    }

    /** Where it was looked for, for a message that says it is missing. */
    fun searched(home: java.nio.file.Path): String = localPath?.let { "${home.resolve(it).parent} and PATH" } ?: "PATH"

    override fun toString() = id
}

/**
 * What a driver sends beyond one fixed request: values drawn per request ([picks], the feeds' `pick:`) and mixes of
 * named requests ([mixes]), each "no" with its reason in [why] (keyed [FEED], [MIX], a pick's id, [MIX_CONNECTIONS]).
 */
data class TrafficSupport(
    /** The picks it draws (`sequential`, `random`, `per-user`); empty: no fed request. */
    val picks: Set<String> = emptySet(),
    val mixes: Boolean = false,
    /** The most connections a mix may hold; null: as many as any load. */
    val mixConnections: Int? = null,
    val why: Map<String, String> = emptyMap(),
) {
    companion object {
        const val FEED = "feed"
        const val MIX = "mix"
        const val MIX_CONNECTIONS = "mix-connections"
    }
}
