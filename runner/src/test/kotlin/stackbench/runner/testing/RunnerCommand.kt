package stackbench.runner.testing

import java.nio.file.Files
import java.nio.file.Path

/**
 * The command line that starts the built runner jar as the launcher does: the JVM the tests run on, the runner's own
 * JVM options (`runner/jvm.options`, which `./stackbench` passes too) and its class-data archive beside the jar.
 */
object RunnerCommand {
    val home: Path = Path.of(System.getProperty("stackbench.home"))
    val jar: Path = Path.of(System.getProperty("stackbench.runner.jar"))
    val java: Path = Path.of(System.getProperty("java.home"), "bin", "java")

    /** `java <the runner's options> -jar stackbench-runner.jar` followed by [args]. */
    fun of(vararg args: String): List<String> = of(args.toList())

    fun of(args: List<String>): List<String> = listOf(
        java.toString(), "@${home.resolve("runner/jvm.options")}", "-XX:SharedArchiveFile=${archive()}",
        "-Dstackbench.home=$home", "-jar", jar.toString(),
    ) + args

    /**
     * The archive for this JDK, removed when it is older than the jar: the JVM writes a missing archive at exit, but one
     * whose jar was rebuilt since (the tests' build after `doctor`'s) it only refuses to map, at every start.
     */
    private fun archive(): Path {
        val archive = jar.resolveSibling("runner-it-${Integer.toHexString(java.toRealPath().toString().hashCode())}.jsa")
        if (Files.isRegularFile(archive) && Files.getLastModifiedTime(archive) < Files.getLastModifiedTime(jar)) Files.deleteIfExists(archive)
        return archive
    }
}
