package stackbench.runner.run

import stackbench.runner.suite.DownstreamConfig
import stackbench.runner.sut.DownstreamLauncher
import stackbench.runner.sut.RunningDownstream
import java.nio.file.Path

/**
 * The downstream service for a run: started the first time a cell needs it, on the CPUs that cell's
 * placement gives it, and kept for the next cells with the same placement (it holds no state).
 */
class Downstreams(private val launcher: DownstreamLauncher, private val config: DownstreamConfig, private val runDir: Path) {
    private val logDir = runDir.resolve("downstream")
    private val running = mutableMapOf<List<Int>, RunningDownstream>()

    @Synchronized
    fun urlFor(cpus: List<Int>): String {
        val existing = running[cpus]
        if (existing != null && existing.child.isAlive()) return existing.url.toString()
        existing?.stop()
        val started = launcher.start(config, cpus, logDir.resolve("downstream-${cpus.joinToString("_").ifEmpty { "any" }}.log"), runDir)
        running[cpus] = started
        return started.url.toString()
    }

    @Synchronized
    fun stopAll() {
        running.values.forEach { runCatching { it.stop() } }
        running.clear()
    }
}
