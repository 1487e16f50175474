package stackbench.runner.load

import stackbench.runner.suite.DriverKind
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** A load generator that is not installed (or does not run); the message names the install command. */
class DriverMissingException(val kind: DriverKind, message: String) : RuntimeException(message)

/** A load generator found on this machine. */
data class LocatedDriver(
    val kind: DriverKind,
    val executable: Path,
    /** e.g. `1.16.0`, `4.1.0`. */
    val version: String,
    /** What the tool printed, e.g. `wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer`. */
    val versionLine: String,
)

/** Finds the load generators and their versions, and makes the driver for each kind. */
object Drivers {
    private val VERSION = Regex("""(\d+\.\d+\.\d+)""")

    fun driver(kind: DriverKind, wrkPerSecond: Boolean = true): LoadDriver = when (kind) {
        DriverKind.OHA -> OhaDriver()
        DriverKind.WRK -> WrkDriver(perSecond = wrkPerSecond)
    }

    /** The executable: oha in `<home>/.tools/bin`, then on PATH; wrk on PATH. Null when not found. */
    fun find(kind: DriverKind, home: Path, path: String? = System.getenv("PATH")): Path? {
        val local = when (kind) {
            DriverKind.OHA -> home.resolve(".tools/bin/oha")
            DriverKind.WRK -> null
        }
        return local?.takeIf(::runnable) ?: onPath(kind.id, path)
    }

    /** The executable and its version; [DriverMissingException] when it is not there or does not run. */
    fun locate(kind: DriverKind, home: Path, path: String? = System.getenv("PATH")): LocatedDriver {
        val exe = find(kind, home, path) ?: throw DriverMissingException(
            kind,
            "the load generator ${kind.id} is not installed (looked in ${searched(kind, home)}); install it with: ${kind.install}",
        )
        val line = versionLine(kind, exe)
        val version = VERSION.find(line)?.value ?: throw DriverMissingException(
            kind,
            "$exe does not look like ${kind.id}: its version flag printed \"$line\"; install it with: ${kind.install}",
        )
        return LocatedDriver(kind, exe, version, line)
    }

    /**
     * The first line the tool prints for its version flag: `oha --version` (exit 0); `wrk -v`, which
     * prints its version, then its usage for want of a URL, and exits 1: the exit status is ignored.
     */
    fun versionLine(kind: DriverKind, executable: Path): String {
        val flag = when (kind) {
            DriverKind.OHA -> "--version"
            DriverKind.WRK -> "-v"
        }
        val process = try {
            ProcessBuilder(executable.toString(), flag).redirectErrorStream(true).start()
        } catch (e: java.io.IOException) {
            throw DriverMissingException(kind, "$executable does not run (${e.message}); install ${kind.id} with: ${kind.install}")
        }
        process.outputStream.close()
        val text = process.inputStream.bufferedReader().use { it.readText() }
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly()
        return text.lineSequence().map { it.trim() }.firstOrNull { it.isNotEmpty() } ?: ""
    }

    private fun onPath(name: String, path: String?): Path? = path.orEmpty().split(':').filter { it.isNotEmpty() }
        .map { Path.of(it, name) }.firstOrNull(::runnable)

    private fun runnable(p: Path) = Files.isRegularFile(p) && Files.isExecutable(p)

    private fun searched(kind: DriverKind, home: Path) = when (kind) {
        DriverKind.OHA -> "${home.resolve(".tools/bin")} and PATH"
        DriverKind.WRK -> "PATH"
    }
}
