package stackbench.runner.cli

import java.nio.file.Files
import java.nio.file.Path

/** The project folder: where suites, app jars and results live. The launcher passes it as stackbench.home. */
object Home {
    val path: Path by lazy {
        System.getProperty("stackbench.home")?.let { Path.of(it).toAbsolutePath().normalize() }
            ?: generateSequence(Path.of("").toAbsolutePath()) { it.parent }.firstOrNull { Files.isRegularFile(it.resolve("stackbench")) && Files.isDirectory(it.resolve("suites")) }
            ?: Path.of("").toAbsolutePath()
    }

    /** The JDK the apps run on: the one running the runner (the launcher picked a JDK 21+). */
    val java: Path get() = Path.of(System.getProperty("java.home"), "bin", "java")

    val suites: Path get() = path.resolve("suites")
    val results: Path get() = path.resolve("results")
    val tools: Path get() = path.resolve(".tools")

    /** A suite given by name (`quick`) or path. */
    fun suite(arg: String): Path {
        val direct = Path.of(arg)
        if (Files.isRegularFile(direct)) return direct
        val named = suites.resolve(if (arg.endsWith(".yaml") || arg.endsWith(".yml")) arg else "$arg.yaml")
        if (Files.isRegularFile(named)) return named
        val known = runCatching { Files.list(suites).use { s -> s.map { it.fileName.toString().removeSuffix(".yaml") }.sorted().toList() } }.getOrDefault(emptyList())
        throw BadInput("no suite '$arg': not a file, and not in $suites (suites there: ${known.joinToString().ifEmpty { "none" }})")
    }
}
