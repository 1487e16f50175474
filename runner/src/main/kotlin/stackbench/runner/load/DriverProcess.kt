package stackbench.runner.load

import stackbench.runner.host.ProcessStop
import stackbench.runner.isolation.Taskset
import stackbench.runner.plan.LoadShape
import stackbench.runner.results.LoadResult
import stackbench.runner.suite.LoadLength
import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/** How a driver's process ended. */
data class DriverRun(
    val command: List<String>,
    val exitCode: Int,
    val wallSeconds: Double,
    val pid: Long,
    val stdout: Path,
    val stderr: Path,
    /** True when it outran its deadline and was stopped. */
    val overran: Boolean,
    /** True when `stopWhen` ended it before its length: its output may be incomplete. */
    val stoppedEarly: Boolean = false,
)

class DriverProcessException(message: String) : RuntimeException(message)

/**
 * Runs a driver's command as a child process: on [cpus] (through `taskset -c` when the list is not
 * empty), stdout and stderr to `stdout.txt` and `stderr.txt` in the output folder, bounded by a hard
 * deadline. A driver that overruns, or whose caller is interrupted, gets SIGTERM, then SIGKILL after [grace].
 */
class DriverProcess(
    private val grace: Duration = Duration.ofSeconds(5),
    /** Starts the command with stdout and stderr to the given files; the runner passes one that confines it. */
    private val launcher: (command: List<String>, stdout: Path, stderr: Path) -> Process = ::plainLaunch,
) {

    /**
     * Runs [command] to its end or its [deadline]. [onStarted] gets the process as soon as it runs (to
     * sample its CPU). An interrupt stops the process and is rethrown as [InterruptedException].
     */
    fun run(
        command: List<String>,
        outputDir: Path,
        cpus: List<Int> = emptyList(),
        deadline: Duration,
        onStarted: (Process) -> Unit = {},
        /** Polled every 200 ms while the driver runs: true stops it early (SIGTERM), as a finished run. */
        stopWhen: (() -> Boolean)? = null,
    ): DriverRun {
        Files.createDirectories(outputDir)
        val full = Taskset.pinned(command, cpus)
        val stdout = outputDir.resolve(STDOUT)
        val stderr = outputDir.resolve(STDERR)
        val start = System.nanoTime()
        val process = launcher(full, stdout, stderr)
        try {
            onStarted(process)
            val end = start + deadline.toNanos()
            var finished = false
            var stoppedEarly = false
            while (!finished) {
                val left = end - System.nanoTime()
                if (left <= 0) break
                finished = process.waitFor(if (stopWhen == null) left else minOf(left, POLL.toNanos()), TimeUnit.NANOSECONDS)
                if (!finished && stopWhen != null && stopWhen()) {
                    ProcessStop.stop(process, grace)
                    finished = true
                    stoppedEarly = true
                }
            }
            if (!finished) ProcessStop.stop(process, grace)
            val wall = (System.nanoTime() - start) / 1e9
            return DriverRun(full, if (stoppedEarly) 0 else process.exitValue(), wall, process.pid(), stdout, stderr, overran = !finished, stoppedEarly = stoppedEarly)
        } catch (e: InterruptedException) {
            ProcessStop.stop(process, grace)
            throw e
        } finally {
            if (process.isAlive) ProcessStop.stop(process, grace)
        }
    }

    /**
     * Builds [driver]'s command for [request], runs it within [deadline] and parses what it wrote.
     * Throws [DriverProcessException] when the driver overran or exited with a non-zero status.
     */
    fun drive(
        driver: LoadDriver,
        request: DriveRequest,
        executable: Path,
        cpus: List<Int> = emptyList(),
        onStarted: (Process) -> Unit = {},
    ): LoadResult {
        val command = driver.command(request, executable)
        val run = run(command, request.outputDir, cpus, deadline(request), onStarted)
        if (run.overran) {
            throw DriverProcessException(
                "${driver.kind.id} overran its deadline of ${deadline(request).seconds} s and was stopped\n" +
                    LoadSupport.outputTail(run.stdout, run.stderr),
            )
        }
        if (run.exitCode != 0) {
            throw DriverProcessException(
                "${driver.kind.id} exited with status ${run.exitCode}: ${command.joinToString(" ")}\n" +
                    LoadSupport.outputTail(run.stdout, run.stderr),
            )
        }
        return driver.parse(request, run.stdout, run.stderr, run.wallSeconds)
    }

    companion object {
        private val POLL: Duration = Duration.ofMillis(200)

        fun plainLaunch(command: List<String>, stdout: Path, stderr: Path): Process = ProcessBuilder(command.map { stackbench.runner.suite.Secrets.expand(it) })
            .redirectInput(ProcessBuilder.Redirect.from(File("/dev/null")))
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start()

        const val STDOUT = "stdout.txt"
        const val STDERR = "stderr.txt"

        /**
         * The longest a phase may take before it is stopped. Timed: its length, one timeout and 30 s (plus
         * a tenth of the length, for oha writing every request to SQLite after the window). Counted: open
         * model, twice the time the rate needs, one timeout and 60 s; closed model, every request timing
         * out one connection at a time (capped at an hour), at least 2 minutes.
         */
        fun deadline(request: DriveRequest): Duration = when (val length = request.length) {
            is LoadLength.Timed -> length.duration + request.timeout + Duration.ofSeconds(30) + length.duration.dividedBy(10)
            is LoadLength.Counted -> when (val shape = request.shape) {
                is LoadShape.Open -> Duration.ofMillis((length.requests / shape.rate * 2_000).toLong()) + request.timeout + Duration.ofSeconds(60)
                is LoadShape.Closed -> {
                    val worst = request.timeout.multipliedBy(Math.ceilDiv(length.requests.toLong(), shape.connections.coerceAtLeast(1).toLong()))
                    (worst + Duration.ofSeconds(30)).coerceIn(Duration.ofMinutes(2), Duration.ofHours(1))
                }
                is LoadShape.Scenario -> throw IllegalArgumentException("a scenario runs for its stages' time, not a request count")
            }
        }
    }
}
