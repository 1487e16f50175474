package stackbench.runner.load

import stackbench.runner.host.ProcessStop
import stackbench.runner.results.LoadResult
import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * One k6 instance of a split run: how to start k6 where it runs, and how to run a short k6 command there
 * (`k6 status`, `k6 resume`). Local instances are [SplitRun.local]; another machine's supply their own.
 */
data class LoadInstance(
    /** k6's path where the instance runs. */
    val executable: Path,
    /** Where its REST API listens, as given to `--address` and reached by [control]: `127.0.0.1:6601`. */
    val address: String,
    /** Starts the command with stdout and stderr to the given files, as [DriverProcess]'s launcher. */
    val launch: (command: List<String>, stdout: Path, stderr: Path) -> Process,
    /** Runs a short k6 command where the instance runs, to its end; returns its exit status. */
    val control: (command: List<String>) -> Int,
    /** Where a file of this machine (the script) is found where the instance runs: itself, or a copy there. */
    val stage: (Path) -> String = { it.toString() },
    /** Where the instance runs, for messages and notes: `local`, or a host's name. */
    val where: String = "local",
)

/** A split run's merged result, and each instance's request count (their sum is the merged count). */
data class SplitResult(val result: LoadResult, val perInstance: List<Long>, val merged: Long)

class SplitRunException(message: String) : RuntimeException(message)

/**
 * Runs one k6 load over several instances with execution segments ([ExecutionSegments]): each started
 * `--paused` with its own REST API, then, once every one answers `k6 status`, all resumed together
 * (`k6 resume`), waited for, and their CSV samples merged ([K6Samples.merge]: one histogram, every answer).
 * Each instance's output goes to `instance-<i>/` in the phase's folder; the script is written once, beside them.
 * Every instance still running on any exit path is stopped.
 */
class SplitRun(
    private val grace: Duration = Duration.ofSeconds(5),
    private val readyWithin: Duration = Duration.ofSeconds(30),
) {
    fun drive(driver: K6Driver, request: DriveRequest, instances: List<LoadInstance>): SplitResult {
        require(instances.isNotEmpty()) { "a split run needs at least one instance" }
        val segments = ExecutionSegments(instances.size)
        val base = driver.command(request, instances.first().executable)
        val script = K6Driver.scriptFile(request).toString()
        val processes = mutableListOf<Process>()
        val dirs = instances.indices.map { request.outputDir.resolve("instance-$it") }
        try {
            val start = System.nanoTime()
            instances.forEachIndexed { i, inst ->
                val command = listOf(inst.executable.toString(), "run") + segments.flags(i) + listOf("--paused", "--address", inst.address) +
                    base.drop(2).map { if (it == script) inst.stage(Path.of(script)) else it }
                Files.createDirectories(dirs[i])
                Files.writeString(dirs[i].resolve("command.txt"), command.joinToString(" ") + "\n")
                processes += inst.launch(command, dirs[i].resolve(DriverProcess.STDOUT), dirs[i].resolve(DriverProcess.STDERR))
            }
            instances.forEachIndexed { i, inst -> awaitReady(inst, processes[i], dirs[i]) }
            val skewMs = resumeAll(instances)
            val end = start + (DriverProcess.deadline(request) + readyWithin).toNanos()
            processes.forEachIndexed { i, p ->
                if (!p.waitFor(maxOf(0L, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw SplitRunException("k6 instance $i (${instances[i].where}, ${instances[i].address}) overran its deadline and was stopped\n" + tail(dirs[i]))
                }
                if (p.exitValue() != 0) throw SplitRunException("k6 instance $i (${instances[i].where}, ${instances[i].address}) exited with status ${p.exitValue()}\n" + tail(dirs[i]))
            }
            val wall = (System.nanoTime() - start) / 1e9
            val parts = dirs.map { d -> Files.newBufferedReader(d.resolve(DriverProcess.STDOUT)).use { K6Samples.read(it) } }
            val merged = K6Samples.merge(parts)
            val counts = parts.map { it.requests }
            val places = instances.map { it.where }.distinct()
            val note = "split over ${parts.size} k6 instances (execution segments ${segments.sequence})" +
                (if (places != listOf("local")) " on ${instances.joinToString { it.where }}" else "") + ": " +
                "${counts.joinToString(" + ")} = ${merged.requests} requests, merged into one histogram and one per-second series; " +
                "resumed within %.0f ms of each other".format(skewMs)
            return SplitResult(K6Driver.result(request, merged, wall, listOf(note)), counts, merged.requests)
        } finally {
            processes.filter { it.isAlive }.forEach { ProcessStop.stop(it, grace) }
        }
    }

    /**
     * Resumes every instance at once (one thread each, released together), so they start as one load; returns
     * the spread of the resume commands' ends, in ms (an upper bound on how far apart the instances started).
     */
    private fun resumeAll(instances: List<LoadInstance>): Double {
        val gate = java.util.concurrent.CountDownLatch(1)
        val pool = java.util.concurrent.Executors.newFixedThreadPool(instances.size)
        try {
            val done = instances.map { inst ->
                pool.submit<Pair<Int, Long>> {
                    gate.await()
                    inst.control(listOf(inst.executable.toString(), "resume", "--address", inst.address)) to System.nanoTime()
                }
            }
            gate.countDown()
            val ends = done.mapIndexed { i, f ->
                val (code, at) = f.get(30, TimeUnit.SECONDS)
                if (code != 0) throw SplitRunException("k6 resume --address ${instances[i].address} exited with status $code")
                at
            }
            return (ends.max() - ends.min()) / 1e6
        } finally {
            pool.shutdownNow()
        }
    }

    /** Polls `k6 status` until the paused instance's API answers; its process ending first is an error. */
    private fun awaitReady(inst: LoadInstance, process: Process, dir: Path) {
        val until = System.nanoTime() + readyWithin.toNanos()
        while (System.nanoTime() < until) {
            if (!process.isAlive) throw SplitRunException("k6 at ${inst.address} ended before it was resumed (status ${process.exitValue()})\n" + tail(dir))
            if (inst.control(listOf(inst.executable.toString(), "status", "--address", inst.address)) == 0) return
            Thread.sleep(POLL_MS)
        }
        throw SplitRunException("k6 at ${inst.address} did not answer k6 status within ${readyWithin.seconds} s\n" + tail(dir))
    }

    private fun tail(dir: Path) = LoadSupport.outputTail(dir.resolve(DriverProcess.STDOUT), dir.resolve(DriverProcess.STDERR))

    companion object {
        private const val POLL_MS = 100L

        /** [count] instances on this machine, each with its REST API on a free port of 127.0.0.1, started by [launch]. */
        fun local(
            executable: Path,
            count: Int,
            launch: (command: List<String>, stdout: Path, stderr: Path) -> Process = DriverProcess::plainLaunch,
        ): List<LoadInstance> = (0 until count).map {
            LoadInstance(executable, "127.0.0.1:${freePort()}", launch, ::runLocally)
        }

        fun runLocally(command: List<String>): Int {
            val p = ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start()
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly()
                return -1
            }
            return p.exitValue()
        }

        private fun freePort(): Int = stackbench.runner.host.ListenPorts.LOOPBACK.next()
    }
}
