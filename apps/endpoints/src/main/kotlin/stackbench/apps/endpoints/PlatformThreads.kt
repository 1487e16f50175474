package stackbench.apps.endpoints

import java.util.concurrent.ThreadFactory
import java.util.concurrent.atomic.AtomicLong

/**
 * Daemon platform threads, as `Thread.ofPlatform().name(...).daemon(true).factory()` makes them: written out, because
 * the Boot 3.5 apps also run on JDK 17, which has no thread builders (JDK 21).
 */
object PlatformThreads {
    /** Threads named [prefix] followed by a counter from 0: `stackbench-cpu-0`, `stackbench-cpu-1`... */
    fun numbered(prefix: String): ThreadFactory {
        val next = AtomicLong()
        return ThreadFactory { task -> daemon(task, prefix + next.getAndIncrement()) }
    }

    /** Threads all named [name]. */
    fun named(name: String): ThreadFactory = ThreadFactory { task -> daemon(task, name) }

    private fun daemon(task: Runnable, name: String) = Thread(task, name).apply { isDaemon = true }
}
