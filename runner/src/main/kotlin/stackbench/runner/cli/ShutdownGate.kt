package stackbench.runner.cli

import java.time.Duration
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * Holds the JVM's shutdown (Ctrl-C, SIGTERM) until the command has printed its end: the JVM halts as soon
 * as its last shutdown hook returns, whatever its other threads are still doing. The suite runner's hook
 * returned once the results were written, so the main thread's summary table raced the halt (printed about
 * half the time) and the resume hint, printed after the report is rendered, lost every time. This hook
 * returns when [close] is called, after the last line, or after [limit].
 */
class ShutdownGate(private val limit: Duration = Duration.ofSeconds(60)) : AutoCloseable {
    private val done = CountDownLatch(1)
    private val hook = Thread({ done.await(limit.toMillis(), TimeUnit.MILLISECONDS) }, "stackbench-output")

    init {
        Runtime.getRuntime().addShutdownHook(hook)
    }

    override fun close() {
        done.countDown()
        // during a shutdown the hook cannot be removed, and need not be: it returns now
        runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
    }
}
