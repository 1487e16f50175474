package stackbench.runner.run

import stackbench.runner.host.ChildProcess
import stackbench.runner.host.Host
import stackbench.runner.host.LaunchSpec
import stackbench.runner.isolation.Confinement
import stackbench.runner.isolation.Isolation
import stackbench.runner.load.DriveRequest
import stackbench.runner.load.DriverProcess
import stackbench.runner.load.DriverProcessException
import stackbench.runner.load.K6Driver
import stackbench.runner.load.LoadDriver
import stackbench.runner.load.SplitRun
import stackbench.runner.load.SplitRunException
import stackbench.runner.results.LoadResult
import java.nio.file.Files
import java.time.Duration

class DriverFailedException(message: String, val logTail: List<String>) : RuntimeException(message)

/**
 * Runs one load phase through [DriverProcess], with the driver started on this run's host: in its own
 * accounting group (for its CPU time, and so nothing escapes cleanup) and pinned to the placement's CPUs.
 */
class LoadPhase(private val host: Host, private val isolation: Isolation) {

    @Volatile private var current: Pair<Confinement, ChildProcess>? = null

    /** The running driver's CPU time so far, for the sampler; null between phases. */
    fun driverCpuMs(): Double? {
        val (confinement, child) = current ?: return null
        confinement.counters()?.cpuUsageNs?.let { return it / 1e6 }
        return child.process.toHandle().info().totalCpuDuration().map { it.toNanos() / 1e6 }.orElse(null)
    }

    fun run(driver: LoadDriver, executable: java.nio.file.Path, request: DriveRequest, cpus: List<Int>, group: String, instances: Int = 1): LoadResult =
        if (instances > 1) split(driver, executable, request, cpus, group, instances)
        else confined(request, cpus, group) { process -> process.drive(driver, request, executable) }

    /**
     * One load split over [instances] k6 instances on this run's host ([SplitRun]), all in the phase's one
     * accounting group and on the driver's CPUs; their per-instance request counts are in the result's notes.
     */
    private fun split(driver: LoadDriver, executable: java.nio.file.Path, request: DriveRequest, cpus: List<Int>, group: String, instances: Int): LoadResult {
        require(driver is K6Driver) { "${driver.kind.id} cannot split a load over instances" }
        Files.createDirectories(request.outputDir)
        val confinement = isolation.account(group, cpus)
        val children = mutableListOf<ChildProcess>()
        try {
            val local = SplitRun.local(executable, instances) { command, stdout, stderr ->
                val full = stackbench.runner.isolation.Taskset.pinned(command, cpus)
                host.launch(LaunchSpec("driver-${children.size}", full, stdout, stderr = stderr, confinement = confinement)).also {
                    children += it
                    if (current == null) current = confinement to it
                }.process
            }
            return SplitRun().drive(driver, request, local).result
        } catch (e: SplitRunException) {
            throw DriverFailedException(e.message!!.lineSequence().first(), e.message!!.lines().drop(1).takeLast(20))
        } finally {
            current = null
            children.forEach { it.stop(Duration.ofSeconds(2)) }
            confinement.release { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
        }
    }

    /**
     * Runs the driver until [stopWhen] says so (or its full length), without reading its output: for a
     * warm-up whose figures come from the app's own counter. Returns how long it ran, in seconds.
     */
    fun runUntil(driver: LoadDriver, executable: java.nio.file.Path, request: DriveRequest, cpus: List<Int>, group: String, stopWhen: () -> Boolean): Double =
        confined(request, cpus, group) { process ->
            val run = process.run(driver.command(request, executable), request.outputDir, emptyList(), DriverProcess.deadline(request), stopWhen = stopWhen)
            if (run.overran) throw DriverFailedException("${driver.kind.id} overran its warm-up and was stopped", stackbench.runner.host.LogFiles.tail(run.stderr, 20))
            if (run.exitCode != 0) throw DriverFailedException("${driver.kind.id} exited with status ${run.exitCode} during the warm-up", stackbench.runner.host.LogFiles.tail(run.stderr, 20))
            run.wallSeconds
        }

    private fun <T> confined(request: DriveRequest, cpus: List<Int>, group: String, body: (DriverProcess) -> T): T {
        Files.createDirectories(request.outputDir)
        val confinement = isolation.account(group, cpus)
        var child: ChildProcess? = null
        val process = DriverProcess(launcher = { command, stdout, stderr ->
            Files.writeString(request.outputDir.resolve("command.txt"), command.joinToString(" ") + "\n")
            host.launch(LaunchSpec("driver", command, stdout, stderr = stderr, confinement = confinement)).also {
                child = it
                current = confinement to it
            }.process
        })
        try {
            return body(process)
        } catch (e: DriverProcessException) {
            throw DriverFailedException(e.message!!.lineSequence().first(), e.message!!.lines().drop(1).takeLast(20))
        } finally {
            current = null
            child?.stop(Duration.ofSeconds(2))
            confinement.release { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
        }
    }
}
