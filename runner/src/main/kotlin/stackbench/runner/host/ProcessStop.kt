package stackbench.runner.host

import java.time.Duration
import java.util.concurrent.TimeUnit

/** Stopping a process the one way the lab does it: SIGTERM, a grace period, then SIGKILL. */
object ProcessStop {
    /** How long to wait for a SIGKILL to land, so the pid is reaped. */
    private val REAP: Duration = Duration.ofSeconds(5)

    /**
     * SIGTERM to [process] and its descendants; SIGKILL to whatever is left after [grace], then a wait for the kill
     * to land. An interrupt while waiting does not cut the stop short: it is kept for the caller (the flag is set
     * again). Returns true when the process exited within [grace] on its own.
     */
    fun stop(process: Process, grace: Duration): Boolean {
        val descendants = runCatching { process.descendants().toList() }.getOrDefault(emptyList())
        if (process.isAlive) process.destroy()
        descendants.forEach { it.destroy() }
        var interrupted = false
        var exited = false
        try {
            exited = process.waitFor(grace.toNanos(), TimeUnit.NANOSECONDS)
        } catch (_: InterruptedException) {
            interrupted = true
        }
        descendants.filter { it.isAlive }.forEach { it.destroyForcibly() }
        if (!exited) {
            process.destroyForcibly()
            val deadline = System.nanoTime() + REAP.toNanos()
            while (process.isAlive && System.nanoTime() < deadline) {
                try {
                    process.waitFor(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)
                } catch (_: InterruptedException) {
                    interrupted = true
                }
            }
        }
        if (interrupted) Thread.currentThread().interrupt()
        return exited
    }
}
