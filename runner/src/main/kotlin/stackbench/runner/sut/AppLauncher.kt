package stackbench.runner.sut

import stackbench.contract.Paths
import stackbench.runner.host.ChildProcess
import stackbench.runner.host.Host
import stackbench.runner.host.LaunchSpec
import stackbench.runner.host.ObserverThreads
import stackbench.runner.host.PortOwner
import stackbench.runner.isolation.CgroupLimits
import stackbench.runner.isolation.Confinement
import stackbench.runner.isolation.Isolation
import stackbench.runner.plan.Cell
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/**
 * An app the cell runs against: its process and confinement when the lab started it, and where it answers. A system
 * the lab did not start ([Capabilities.process] false: a url: app) has no process: nothing of it is read from /proc, its
 * confinement holds nothing, and stopping it does nothing to it.
 */
class RunningApp(
    /** Its process; null for a system the lab did not start. */
    val process: ChildProcess?,
    val confinement: Confinement,
    /** Where it answers: a scheme, host and port, and a url: app's base path (no trailing `/`). */
    val baseUrl: URI,
    /** The built-in apps' stats channel; null when the app has none ([Capabilities.statsChannel]). */
    val statsUrl: URI?,
    val command: List<String>,
    /** The folder of the cell that started it: its app.log and gc.log are there. */
    val dir: Path,
    /** The cell that started it. */
    val startedBy: String,
    /** The relays in front of its ports, if its host emulates a round trip with one. */
    val exposures: List<stackbench.runner.host.Exposure> = emptyList(),
    /** Where the lab primes the app: [baseUrl], or past the relay's delay when its host emulates a round trip with one. */
    val primeUrl: URI = baseUrl,
    /** Started from its extracted jar with a class-data archive (`run --fast-start`): its start-up is not a container's. */
    val fastStart: Boolean = false,
    /**
     * Started on every CPU without a quota (`profile.start-cpus: all`): its CPU limits are [cpuLimitsDue] until it is
     * healthy ([AppStarter.applyCpuLimits]), so its start-up is not a container's either.
     */
    val startedOnAllCpus: Boolean = false,
    /** What it is, and what it offers beyond answering. */
    val sut: SystemUnderTest,
) {
    /** [path] (from its `/`) on the app: after a url: app's base path. */
    fun at(path: String): URI = URI(baseUrl.toString().trimEnd('/') + stackbench.runner.suite.Secrets.uriSafe(path))

    /** Its process id, or null without a process. */
    val pid: Long? get() = process?.pid

    /** Whether its process still runs; true without one, which the lab cannot watch (its failures show as errors). */
    fun isAlive(): Boolean = process?.isAlive() ?: true

    /** Its log's last lines; none without a process the lab started. */
    fun logTail(lines: Int = 40): List<String> = process?.logTail(lines) ?: emptyList()

    /** Its stats channel's counter; null when it has none (then the load generator counts its answers). */
    fun counter(json: tools.jackson.databind.ObjectMapper): (() -> stackbench.runner.probe.ServerCount?)? =
        statsUrl?.let { url -> val channel = stackbench.runner.probe.StatsChannel(url, json); { channel.read() } }

    /** The CPU limits a start on every CPU put off until the app is healthy; null once they hold (or if they held from the start). */
    @Volatile var cpuLimitsDue: CgroupLimits? = null

    /** Its priming (the first cell it serves does it), kept for the cells that reuse it. */
    @Volatile var prime: stackbench.runner.results.PrimeRecord? = null

    /**
     * The configurations (by key) whose `compile-first` stage it has run: their request is compiled, so a later
     * window of the same configuration on this process goes straight to its warm-up.
     */
    val compiledFirst: MutableSet<String> = java.util.concurrent.ConcurrentHashMap.newKeySet()

    /** The idle probe of each configuration this process served, by configuration key, for its later repetitions. */
    val idleProbes = java.util.concurrent.ConcurrentHashMap<String, stackbench.runner.results.IdleProbe>()

    /** The JVM's runtime as it named itself when ready ([stackbench.runner.probe.JvmRuntime]); null for what is not a JVM the lab started. */
    @Volatile var runtime: stackbench.runner.results.RuntimeRecord? = null

    /** Where its stats channel's threads run ([stackbench.runner.host.ObserverThreads]), in words; null until placed. */
    @Volatile var statsThreads: String? = null

    /** What `/info` answered the first cell that read it: the process's servers and pools do not change while it runs. */
    @Volatile var info: tools.jackson.databind.JsonNode? = null

    /** The passed verification of each configuration this process served, by configuration key, for its later repetitions. */
    val verifications = java.util.concurrent.ConcurrentHashMap<String, stackbench.runner.results.VerificationResult>()

    /** Stops the app (SIGTERM, SIGKILL after the grace period) and removes its cgroup; nothing for one the lab did not start. */
    fun stop(grace: Duration = if (fastStart) Duration.ofSeconds(FastStart.EXIT_GRACE_SECONDS) else Duration.ofSeconds(3)) {
        try {
            process?.stop(grace)
        } finally {
            exposures.forEach { runCatching { it.close() } }
            confinement.release { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
        }
    }
}

class AppStartException(message: String, val logTail: List<String>) : RuntimeException(message)

/** Starts a cell's app and waits until it is ready: [AppLauncher] on a host, or a test's fake. */
interface AppStarter {
    fun start(cell: Cell, cellDir: Path, groupName: String, downstreamUrl: String?): RunningApp

    /** Milliseconds from the process's start until the app answered its health check; null without a process (no start to time). */
    fun awaitHealthy(app: RunningApp, timeout: Duration = Duration.ofSeconds(120)): Double?

    /**
     * Takes the healthy app's stats channel threads out of its CPU limits, onto [driverCpus] (empty: every CPU); what
     * was done, in words, or null where the lab cannot see the app's threads.
     */
    fun releaseStatsThreads(app: RunningApp, driverCpus: List<Int>): String? = null

    /**
     * Puts the CPU limits that a start on every CPU put off ([RunningApp.cpuLimitsDue]) on the healthy app, before
     * anything of it is measured; fails with [AppStartException] when they cannot be applied. Nothing for an app whose
     * limits held from the start.
     */
    fun applyCpuLimits(app: RunningApp) {}
}

/** Starts a cell's app in its confinement, and waits until it is ready. */
class AppLauncher(
    private val host: Host,
    private val isolation: Isolation,
    private val java: Path,
    private val home: Path,
    private val machineCpus: Int,
    private val http: Http,
    private val fastStart: Boolean = false,
    /** The run's database, passed to every app it starts; null: none. */
    private val database: stackbench.runner.database.DatabaseEndpoint? = null,
) : AppStarter {
    override fun start(cell: Cell, cellDir: Path, groupName: String, downstreamUrl: String?): RunningApp {
        // a fast start extracts the jar on this machine: not for an app on another one
        val fast = fastStart && host.kind != "ssh"
        val sut = SystemUnderTest.of(cell.app, home, fast)
        Files.createDirectories(cellDir)
        sut.problem()?.let { throw AppStartException(it, emptyList()) }
        // a system the lab does not start answers where it runs: no process, no confinement, no relay
        if (!sut.capabilities.process) {
            val at = requireNotNull(sut.runningAt) { "${sut.kind}: a system the lab does not start says where it runs" }
            return RunningApp(null, Confinement.none(), at, null, emptyList(), cellDir, cell.key, sut = sut)
        }
        val ports = AppPorts(host.freePort(), if (sut.capabilities.statsChannel) host.freePort() else 0)
        val ctx = LaunchContext(cell, java, home, machineCpus, host.bindAddress, ports, downstreamUrl, cellDir.resolve("gc.log"), database)
        val command = sut.command(ctx)
        val limits = CgroupLimits(cell.profile.cpus, cell.profile.cpuset, cell.profile.memoryBytes)
        // a start on every CPU (profile.start-cpus: all) only where the lab pins the JVM's processor count to the
        // profile's, so that every pool and compiler thread it sizes at start is the container's, and on this machine;
        // its memory limit holds from the start, its CPU limits once it is healthy
        val wide = cell.profile.startOnAllCpus && host.kind != "ssh" && (limits.cpuQuota != null || limits.cpus.isNotEmpty()) &&
            command.any { it.startsWith(AppCommand.PROCESSOR_COUNT) }
        val confinement = if (wide) isolation.confineStartingWide(groupName, limits, machineCpus) else isolation.confine(groupName, limits)
        val child = try {
            host.launch(LaunchSpec("app", command, cellDir.resolve("app.log"), confinement = confinement, env = sut.environment(ctx)))
        } catch (e: Exception) {
            confinement.release { }
            throw e
        }
        // behind a relay (a namespace host's emulated round trip), the requests are delayed, the lab's stats channel is not;
        // the relay runs on the driver's CPUs, never the app's
        val relayCpus = stackbench.runner.host.Placement.of(cell.profile, machineCpus).driverCpus
        val exposures = mutableListOf<stackbench.runner.host.Exposure>()
        var controlPort = ports.http
        try {
            exposures += host.expose(ports.http, delayed = true, relayCpus, cellDir.resolve("relay-http.log"))
            if (sut.capabilities.statsChannel) exposures += host.expose(ports.stats, delayed = false, relayCpus, cellDir.resolve("relay-stats.log"))
            // the priming compiles the HTTP path: through the round trip at one connection it would take 20 times as long
            if (exposures[0] !== stackbench.runner.host.Exposure.DIRECT) {
                val control = host.freePort()
                exposures += host.expose(ports.http, delayed = false, relayCpus, cellDir.resolve("relay-control.log"), listenPort = control)
                controlPort = control
            }
        } catch (e: Exception) {
            exposures.forEach { runCatching { it.close() } }
            child.stop(Duration.ofSeconds(1))
            confinement.release { }
            throw e
        }
        return RunningApp(child, confinement, URI("http://${host.address}:${ports.http}"),
            if (sut.capabilities.statsChannel) URI("http://${host.address}:${ports.stats}/stats") else null,
            command, cellDir, cell.key, exposures, URI("http://${host.address}:$controlPort"), fast && sut is BuiltinApp, wide, sut)
            .also { if (wide) it.cpuLimitsDue = limits }
    }

    override fun applyCpuLimits(app: RunningApp) {
        val due = app.cpuLimitsDue ?: return
        val pid = app.pid ?: return
        isolation.limitCpus(app.confinement, pid, due)?.let {
            throw AppStartException("the app started on every CPU (profile.start-cpus: all), and its CPU limits could not be applied after: $it", app.logTail())
        }
        app.cpuLimitsDue = null
    }

    /**
     * Polls the app's readiness path (the built-in apps' /actuator/health) until it answers the status that means ready;
     * returns milliseconds since the process started. Fails with the log's tail if the app exits or is not ready in
     * its readiness timeout (at most [timeout] for the built-in apps).
     */
    override fun awaitHealthy(app: RunningApp, timeout: Duration): Double? {
        val ready = app.sut.readiness
        val url = app.at(ready.path)
        val wait = if (app.sut is BuiltinApp) timeout else ready.timeout
        val deadline = System.nanoTime() + wait.toNanos()
        val child = app.process
        var last: Int? = null
        var foreign: PortOwner.Foreign? = null
        while (System.nanoTime() < deadline) {
            if (child != null && !child.isAlive()) {
                throw AppStartException("the app exited with status ${child.process.exitValue()} before it was ready", child.logTail())
            }
            last = http.statusOf(url, Duration.ofSeconds(1))
            // an answer from another process on the app's port is not the app's: the app has not bound it (yet)
            if (last != null) foreignOnPort(app)?.let { foreign = it; last = null }
            // without a process there is no start to time: only whether it is ready
            if (ready.isReady(last)) return child?.let { (System.nanoTime() - it.startNanos) / 1e6 }
            Thread.sleep(25)
        }
        val seen = if (last == null) (if (child == null) "${app.baseUrl}" else "its port ${app.baseUrl.port}") + " never answered HTTP" +
            (foreign?.let { " from the app: another process listens there, ${it.describe()}" } ?: "")
            else "GET ${ready.path} answered $last, waiting for ${ready.describe}"
        throw AppStartException("the app was not ready within ${wait.seconds} s: $seen", app.logTail())
    }

    /**
     * The process that listens on the app's port when it is not the app or one of its children; null when it is, or when
     * the lab cannot tell (no process of its own, another machine or namespace, or relays in front of the port).
     */
    private fun foreignOnPort(app: RunningApp): PortOwner.Foreign? {
        val child = app.process ?: return null
        if (host.kind != "local" || app.exposures.isNotEmpty()) return null
        val handle = child.process.toHandle()
        val tree = (sequenceOf(handle) + handle.descendants().toList()).map { it.pid() }.toSet()
        return PortOwner.foreignListener(app.baseUrl.port, tree, child.pid)
    }

    /** The app's threads are this machine's (its own host or a namespace of it), not another machine's. */
    override fun releaseStatsThreads(app: RunningApp, driverCpus: List<Int>): String? =
        if (host.kind == "ssh") null else app.pid?.let { ObserverThreads.release(ObserverThreads.threadsOf(it), isolation, driverCpus) }
}
