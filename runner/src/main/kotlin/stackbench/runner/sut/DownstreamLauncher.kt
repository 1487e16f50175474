package stackbench.runner.sut

import stackbench.runner.catalog.DownstreamJar
import stackbench.runner.host.ChildProcess
import stackbench.runner.host.Exposure
import stackbench.runner.host.Host
import stackbench.runner.host.LaunchSpec
import stackbench.runner.isolation.Confinement
import stackbench.runner.suite.DownstreamConfig
import java.net.URI
import java.nio.file.Path
import java.time.Duration

/** The running downstream service. */
class RunningDownstream(val child: ChildProcess, val url: URI, val cpus: List<Int>, val exposure: Exposure = Exposure.DIRECT) {
    fun stop() {
        try {
            child.stop(Duration.ofSeconds(3))
        } finally {
            exposure.close()
        }
    }
}

/** Starts the downstream delay service on the CPUs the placement gives it. */
class DownstreamLauncher(private val host: Host, private val java: Path, private val home: Path, private val http: Http) {

    fun start(config: DownstreamConfig, cpus: List<Int>, log: Path, runDir: Path): RunningDownstream {
        val jar = home.resolve(DownstreamJar.PATH)
        require(jar.toFile().isFile) { "the downstream service is not built: $jar is missing (run ./stackbench build)" }
        val port = host.freePort()
        val command = buildList {
            add(host.java(java))
            add("-XX:ActiveProcessorCount=${cpus.size.takeIf { it > 0 } ?: Runtime.getRuntime().availableProcessors()}")
            add("-Xmx256m")
            add(AppCommand.ownerFlag(runDir))
            add("-jar"); add(host.stage(jar))
            add("--port=$port"); add("--host=${host.bindAddress}")
            config.stall?.let {
                add("--stall-every=${it.every.toMillis()}")
                add("--stall-window=${it.window.toMillis()}")
                add("--stall-hold=${it.hold.toMillis()}")
            }
        }
        val child = host.launch(LaunchSpec("downstream", command, log, confinement = Confinement.pinned(cpus)))
        val exposure = try {
            host.expose(port, delayed = true, cpus, log.resolveSibling("downstream-relay.log"))
        } catch (e: Exception) {
            child.stop()
            throw e
        }
        val url = URI("http://${host.address}:$port")
        val deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos()
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                exposure.close()
                throw AppStartException("the downstream service exited before it was ready", child.logTail())
            }
            if (http.statusOf(url.resolve("/health")) == 200) return RunningDownstream(child, url, cpus, exposure)
            Thread.sleep(25)
        }
        child.stop()
        exposure.close()
        throw AppStartException("the downstream service was not ready within 30 s", child.logTail())
    }
}
