package stackbench.runner.profiler

import stackbench.runner.suite.ProfilerEngine
import stackbench.runner.suite.ProfilerMode
import stackbench.runner.suite.ProfilerSpec
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * async-profiler's converter (`tools.profiler:jfr-converter`), run as its own process on the runner's class path:
 * a window's JFR file to collapsed stacks and to an HTML flame graph, and collapsed stacks (a difference of two
 * profiles) to a flame graph.
 */
class FlameConverter(private val java: Path, private val classPath: String = converterClassPath()) {

    /** [jfr] recorded by [engine] in [mode] → collapsed stacks in [out]. */
    fun collapsed(jfr: Path, mode: ProfilerMode, engine: ProfilerEngine, out: Path) =
        convert(modeFlags(mode, engine) + listOf("-o", "collapsed", jfr.toString(), out.toString()))

    /** [input] (a JFR file recorded by [engine] in [mode], or collapsed stacks when [mode] is null) → an HTML flame graph titled [title]. */
    fun html(input: Path, mode: ProfilerMode?, engine: ProfilerEngine?, title: String, out: Path) =
        convert((if (mode != null && engine != null) modeFlags(mode, engine) else emptyList()) + listOf("--title", title, "-o", "html", input.toString(), out.toString()))

    private fun convert(args: List<String>) {
        val log = Files.createTempFile("jfrconv", ".log")
        try {
            val p = ProcessBuilder(listOf(java.toString(), "-Xmx512m", "-cp", classPath, "Main") + args)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start()
            val done = p.waitFor(120, TimeUnit.SECONDS)
            if (!done) p.destroyForcibly()
            check(done && p.exitValue() == 0 && Files.isRegularFile(Path.of(args.last()))) {
                "converting the profile failed (${if (done) "exit ${p.exitValue()}" else "no end in 120 s"}): ${Files.readAllLines(log).takeLast(5).joinToString(" / ")}"
            }
        } finally {
            Files.deleteIfExists(log)
        }
    }

    companion object {
        /** The converter's flags for what [engine] recorded in [mode]: the JDK's own execution samples are its default. */
        fun modeFlags(mode: ProfilerMode, engine: ProfilerEngine): List<String> = when (mode) {
            ProfilerMode.CPU -> if (engine == ProfilerEngine.ASYNC_PROFILER) listOf("--cpu") else emptyList()
            ProfilerMode.WALL -> listOf("--wall")
            ProfilerMode.ALLOC -> listOf("--alloc")
            ProfilerMode.LOCK -> listOf("--lock")
        }

        /** Where the converter's `Main` class is: the runner's jar (shaded) or, in the tests, its own jar. */
        fun converterClassPath(): String = Path.of(Class.forName("Main").protectionDomain.codeSource.location.toURI()).toString()
    }
}
