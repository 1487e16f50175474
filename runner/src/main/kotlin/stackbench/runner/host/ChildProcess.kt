package stackbench.runner.host

import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/** A process the runner started, registered so that nothing it starts outlives it. */
class ChildProcess(
    val role: String,
    val process: Process,
    val log: Path,
    private val registry: ProcessRegistry,
    /** System.nanoTime() just before the process was started. */
    val startNanos: Long,
    /** How this process stops, when not as [ProcessStop] does it (an ssh session ends its remote command first). */
    private val stopper: ((Process, Duration) -> Boolean)? = null,
) {
    val pid: Long get() = process.pid()

    fun isAlive() = process.isAlive

    /**
     * SIGTERM to the process and its descendants, then SIGKILL to whatever is left after [grace].
     * Returns the exit code, or null if it had to be killed.
     */
    fun stop(grace: Duration = Duration.ofSeconds(5)): Int? {
        try {
            return if ((stopper ?: ProcessStop::stop)(process, grace)) process.exitValue() else null
        } finally {
            registry.forget(this)
        }
    }

    fun logTail(lines: Int = 40): List<String> = LogFiles.tail(log, lines)
}

/** Every child process alive, so a shutdown hook can kill them all. */
class ProcessRegistry {
    private val live = java.util.concurrent.ConcurrentHashMap.newKeySet<ChildProcess>()

    fun remember(child: ChildProcess) {
        live += child
    }

    fun forget(child: ChildProcess) {
        live -= child
    }

    fun alive(): List<ChildProcess> = live.filter { it.isAlive() }

    /** Kills every child at once (SIGKILL after a short grace), for shutdown. */
    fun killAll(grace: Duration = Duration.ofSeconds(3)) {
        val all = live.toList()
        all.forEach { c -> c.process.descendants().forEach { it.destroy() }; c.process.destroy() }
        val deadline = System.nanoTime() + grace.toNanos()
        for (c in all) {
            val left = deadline - System.nanoTime()
            if (left > 0) c.process.waitFor(left, TimeUnit.NANOSECONDS)
            c.process.descendants().forEach { it.destroyForcibly() }
            if (c.process.isAlive) c.process.destroyForcibly()
        }
        live.clear()
    }
}

object LogFiles {
    fun tail(path: Path, lines: Int): List<String> = runCatching {
        java.nio.file.Files.readAllLines(path).takeLast(lines)
    }.getOrDefault(emptyList())
}
