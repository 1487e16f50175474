package stackbench.runner.cell

import stackbench.runner.host.ChildProcess
import stackbench.runner.host.Host
import stackbench.runner.host.LaunchSpec
import stackbench.runner.host.SshHost
import stackbench.runner.isolation.Taskset
import stackbench.runner.isolation.Confinement
import stackbench.runner.isolation.Isolation
import stackbench.runner.load.DriveRequest
import stackbench.runner.load.DriverProcess
import stackbench.runner.load.DriverProcessException
import stackbench.runner.load.K6Driver
import stackbench.runner.load.LoadInstance
import stackbench.runner.load.LoadDriver
import stackbench.runner.load.SplitRun
import stackbench.runner.load.SplitRunException
import stackbench.runner.results.LoadResult
import java.nio.file.Files
import java.time.Duration

class DriverFailedException(message: String, val logTail: List<String>) : RuntimeException(message)

/**
 * Runs one load phase through [DriverProcess], with the driver started on the run's load host: in its own
 * accounting group (for its CPU time, and so nothing escapes cleanup) and pinned to the placement's CPUs. A k6 load
 * placed on several load hosts, on an ssh host, or given several `instances`, is split ([SplitRun]).
 */
class LoadPhase(private val hosts: List<Host>, private val isolation: Isolation) {
    init { require(hosts.isNotEmpty()) { "a load phase needs a load host" } }

    /** The host an unsplit driver runs on. */
    private val host: Host get() = hosts.first()

    @Volatile private var current: Pair<Confinement, ChildProcess>? = null

    /** The running driver's CPU time so far, for the sampler; null between phases. */
    fun driverCpuMs(): Double? {
        val (confinement, child) = current ?: return null
        confinement.counters()?.cpuUsageNs?.let { return it / 1e6 }
        return child.process.toHandle().info().totalCpuDuration().map { it.toNanos() / 1e6 }.orElse(null)
    }

    /** Runs [request] to its end: split when [splits] says so, else one driver on the load host. [instances]: k6 instances per load host. */
    fun run(driver: LoadDriver, executable: java.nio.file.Path, request: DriveRequest, cpus: List<Int>, group: String, instances: Int = 1): LoadResult =
        if (splits(driver, instances)) split(driver as? K6Driver ?: error("${driver.kind.id} is entered as splitting a load (DriverSpec.splits), but a split run (SplitRun) drives k6's execution segments only"),
            executable, request, cpus, group, instances)
        else confined(request, cpus, group) { process -> process.drive(driver, request, executable) }

    /** A load of a driver that splits (its catalog entry: k6) with several instances, several load hosts, or a load host over ssh runs as a [SplitRun]. */
    fun splits(driver: LoadDriver, instances: Int): Boolean =
        driver.kind.splits && (instances > 1 || hosts.size > 1 || hosts.any { it is SshHost })

    /**
     * One load split over [perHost] k6 instances on each load host ([SplitRun]). Those on this machine or its
     * namespaces share the phase's one accounting group and the driver's CPUs; those over ssh get the k6 binary and
     * the script copied there, their REST API on that machine's loopback (resumed by a k6 command run there), their
     * samples streamed back on the ssh connection. Every instance's request count is in the result's notes.
     */
    private fun split(driver: K6Driver, executable: java.nio.file.Path, request: DriveRequest, cpus: List<Int>, group: String, perHost: Int): LoadResult {
        Files.createDirectories(request.outputDir)
        val confinement = isolation.account(group, cpus)
        val children = java.util.concurrent.CopyOnWriteArrayList<ChildProcess>()
        try {
            val instances = hosts.flatMap { h -> List(perHost) { instance(h, executable, cpus, confinement, children) } }
            return SplitRun().drive(driver, request, instances).result
        } catch (e: SplitRunException) {
            throw DriverFailedException(e.message!!.lineSequence().first(), e.message!!.lines().drop(1).takeLast(20))
        } finally {
            current = null
            children.forEach { it.stop(Duration.ofSeconds(2)) }
            confinement.release { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
        }
    }

    private fun instance(host: Host, executable: java.nio.file.Path, cpus: List<Int>, confinement: Confinement, children: MutableList<ChildProcess>): LoadInstance =
        if (host is SshHost) {
            LoadInstance(
                executable = java.nio.file.Path.of(host.stage(executable)),
                address = "127.0.0.1:${host.freePort()}",
                launch = { command, stdout, stderr ->
                    host.launch(LaunchSpec("driver-${children.size}", command, stdout, stderr = stderr)).also { children += it }.process
                },
                control = { command -> host.exec(command).first },
                stage = { file -> host.stage(file) },
                where = host.name,
            )
        } else {
            LoadInstance(
                executable = executable,
                address = "${host.address}:${host.freePort()}",
                launch = { command, stdout, stderr ->
                    host.launch(LaunchSpec("driver-${children.size}", Taskset.pinned(command, cpus), stdout, stderr = stderr, confinement = confinement)).also {
                        children += it
                        if (current == null) current = confinement to it
                    }.process
                },
                control = SplitRun::runLocally,
                where = host.name,
            )
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
