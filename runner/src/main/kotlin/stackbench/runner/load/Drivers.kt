package stackbench.runner.load

import stackbench.runner.catalog.SearchPath
import stackbench.runner.catalog.DriverSpec
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** A load generator that is not installed (or does not run); the message names the install command. */
class DriverMissingException(val kind: DriverSpec, message: String) : RuntimeException(message)

/** A load generator found on this machine. */
data class LocatedDriver(
    val kind: DriverSpec,
    val executable: Path,
    /** e.g. `1.16.0`, `4.1.0`. */
    val version: String,
    /** What the tool printed, e.g. `wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer`. */
    val versionLine: String,
)

/** Finds the load generators and their versions, and makes the adapter for each, all from their catalog entries. */
object Drivers {
    private val VERSION = Regex("""(\d+\.\d+\.\d+)""")

    /**
     * The entry's adapter: the [LoadDriver] of this package named for its id (`oha` → `OhaDriver`), built with no
     * arguments; so a new driver needs its adapter and its catalog entry, and no switch here.
     */
    fun driver(kind: DriverSpec): LoadDriver = Class.forName(adapterClass(kind)).getDeclaredConstructor().newInstance() as LoadDriver

    fun adapterClass(kind: DriverSpec): String =
        "${LoadDriver::class.java.packageName}.${kind.id.replaceFirstChar { it.uppercase() }}Driver"

    /** The executable: at the entry's local path under [home] (oha's `.tools/bin/oha`), then on PATH. Null when not found. */
    fun find(kind: DriverSpec, home: Path, path: String? = System.getenv("PATH")): Path? =
        kind.localPath?.let { home.resolve(it) }?.takeIf(::runnable) ?: onPath(kind.id, path)

    /** The executable and its version; [DriverMissingException] when it is not there or does not run. */
    fun locate(kind: DriverSpec, home: Path, path: String? = System.getenv("PATH")): LocatedDriver {
        val exe = find(kind, home, path) ?: throw DriverMissingException(
            kind,
            "the load generator ${kind.id} is not installed (looked in ${kind.searched(home)}); install it with: ${kind.hint}",
        )
        val line = versionLine(kind, exe)
        val version = VERSION.find(line)?.value ?: throw DriverMissingException(
            kind,
            "$exe does not look like ${kind.id}: its version flag printed \"$line\"; install it with: ${kind.hint}",
        )
        return LocatedDriver(kind, exe, version, line)
    }

    /**
     * The first line the tool prints for its version flag (`oha --version`; `wrk -v`, which prints its version,
     * then its usage for want of a URL, and exits 1): the exit status is ignored.
     */
    fun versionLine(kind: DriverSpec, executable: Path): String {
        val process = try {
            ProcessBuilder(executable.toString(), kind.versionFlag).redirectErrorStream(true).start()
        } catch (e: java.io.IOException) {
            throw DriverMissingException(kind, "$executable does not run (${e.message}); install ${kind.id} with: ${kind.hint}")
        }
        process.outputStream.close()
        val text = process.inputStream.bufferedReader().use { it.readText() }
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly()
        return text.lineSequence().map { it.trim() }.firstOrNull { it.isNotEmpty() } ?: ""
    }

    private fun onPath(name: String, path: String?): Path? = SearchPath.find(name, path = path)

    private fun runnable(p: Path) = SearchPath.runnable(p)
}
