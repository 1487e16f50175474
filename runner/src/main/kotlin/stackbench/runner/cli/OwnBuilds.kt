package stackbench.runner.cli

import stackbench.runner.suite.OwnBuild
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** Runs own apps' `build:` commands before a run, each once, in its suite's folder; a failure stops the run (exit 2) with its last lines. */
object OwnBuilds {
    private const val LIMIT_MINUTES = 20L

    fun run(builds: List<OwnBuild>, home: Path, console: PrintStream) {
        for (build in builds) {
            val dir = home.resolve(build.dir).normalize()
            val shown = build.command.joinToString(" ")
            console.println("stackbench: building an own app: $shown (in $dir)")
            val log = Files.createTempFile("stackbench-build", ".log")
            try {
                val process = try {
                    ProcessBuilder(build.command.map { stackbench.runner.suite.Secrets.expand(it) }).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start()
                } catch (e: java.io.IOException) {
                    throw BadInput("build: '$shown' could not start in $dir: ${e.message}")
                }
                if (!process.waitFor(LIMIT_MINUTES, TimeUnit.MINUTES)) {
                    process.destroyForcibly()
                    throw BadInput("build: '$shown' did not end within $LIMIT_MINUTES minutes")
                }
                if (process.exitValue() != 0) {
                    val tail = Files.readAllLines(log).takeLast(15).joinToString("\n") { "  | $it" }
                    throw BadInput("build: '$shown' exited with status ${process.exitValue()} in $dir:\n$tail")
                }
            } finally {
                Files.deleteIfExists(log)
            }
        }
    }
}
