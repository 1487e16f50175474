package stackbench.runner.cli

import java.nio.file.Files
import java.nio.file.Path

/**
 * The lab's folder: where the built-in suites, the app jars and the tools live. The launcher passes it as
 * stackbench.home. In a checkout, results go under it too (results/); an install (the archive the build makes,
 * docs/install.md; the launcher passes stackbench.installed) is shared by every folder it runs in, so its results go
 * under the current folder's results/, as a project's own files do.
 */
object Home {
    val path: Path by lazy {
        System.getProperty("stackbench.home")?.let { Path.of(it).toAbsolutePath().normalize() }
            ?: generateSequence(Path.of("").toAbsolutePath()) { it.parent }.firstOrNull { Files.isRegularFile(it.resolve("stackbench")) && Files.isDirectory(it.resolve("suites")) }
            ?: Path.of("").toAbsolutePath()
    }

    /** Whether this runner runs from an install rather than a checkout (the launcher says so). */
    val installed: Boolean get() = System.getProperty("stackbench.installed") == "true"

    /** The JDK the apps run on: the one running the runner (the launcher picked a JDK 21+). */
    val java: Path get() = Path.of(System.getProperty("java.home"), "bin", "java")

    val suites: Path get() = path.resolve("suites")
    val results: Path get() = if (installed) Path.of("").toAbsolutePath().resolve("results") else path.resolve("results")
    val tools: Path get() = path.resolve(".tools")

    /** A suite given by name (`quick`) or path. */
    fun suite(arg: String): Path {
        val direct = Path.of(arg)
        if (Files.isRegularFile(direct)) return direct
        val named = suites.resolve(if (arg.endsWith(".yaml") || arg.endsWith(".yml")) arg else "$arg.yaml")
        if (Files.isRegularFile(named)) return named
        val known = runCatching { Files.list(suites).use { s -> s.map { it.fileName.toString().removeSuffix(".yaml") }.sorted().toList() } }.getOrDefault(emptyList())
        throw BadInput("no suite '$arg': not a file (from ${Path.of("").toAbsolutePath()}), and not in $suites (suites there: ${known.joinToString().ifEmpty { "none" }})")
    }

    /**
     * How a suite file is named in problems and the record (`run.suiteFile`): relative to the lab's folder when it is in
     * it (suites/quick.yaml), else its absolute path. The suite reader resolves an own app's relative paths against the
     * folder of this name (taken from the lab's folder), so a suite anywhere finds the jars beside it.
     */
    fun shown(suite: Path): String {
        val absolute = suite.toAbsolutePath().normalize()
        return if (absolute.startsWith(path)) path.relativize(absolute).toString() else absolute.toString()
    }
}
