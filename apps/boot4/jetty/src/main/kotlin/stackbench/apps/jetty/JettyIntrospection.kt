package stackbench.apps.jetty

import org.eclipse.jetty.server.ServerConnector
import org.eclipse.jetty.util.Jetty
import org.eclipse.jetty.util.thread.QueuedThreadPool
import org.eclipse.jetty.util.thread.ThreadPool
import org.eclipse.jetty.util.thread.VirtualThreadPool
import org.springframework.boot.jetty.JettyWebServer
import org.springframework.boot.web.server.context.WebServerApplicationContext
import org.springframework.context.ApplicationContext
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.info.Execution
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.Model
import stackbench.apps.endpoints.info.ServerDescription
import stackbench.apps.endpoints.info.ServerIntrospection
import stackbench.apps.endpoints.info.Source
import stackbench.contract.Pool

/**
 * Reads the live Jetty thread pool. On platform threads its size is what requests may use: `server.jetty.threads.max`
 * less the threads the acceptor(s) and selector(s) lease for good (QueuedThreadPool's maxAvailableThreads: 8 of 10 with
 * one of each). With virtual threads, Spring Boot 4.1 gives Jetty a VirtualThreadPool whose limit on concurrent tasks
 * is `server.jetty.threads.max` (200 by default): unlike Tomcat's, it still bounds.
 */
@Component
class JettyIntrospection(private val context: ApplicationContext) : ServerIntrospection {
    override val stack = "jetty"
    override val model = Model.SERVLET

    override fun describe(virtualThreads: Boolean): ServerDescription {
        val server = ((context as WebServerApplicationContext).webServer as JettyWebServer).server
        val connector = server.connectors.filterIsInstance<ServerConnector>().firstOrNull()
        val shared = connector?.let { " to ${it.acceptors} acceptor(s) and ${it.selectorManager.selectorCount} selector(s)" } ?: ""
        val (pool, execution) = requestPool(server.threadPool, shared)
        return ServerDescription("Eclipse Jetty", Jetty.VERSION, execution, listOf(pool))
    }

    private fun requestPool(pool: ThreadPool, shared: String): Pair<Pool, String> = when (pool) {
        is VirtualThreadPool -> Pool("jetty.threads", pool.maxConcurrentTasks.takeIf { it > 0 }, Kind.VIRTUAL_THREADS, Source.RUNTIME,
            "VirtualThreadPool: one virtual thread per task, at most this many tasks at once (server.jetty.threads.max), " +
                "shared$shared") to
            Execution.VIRTUAL_THREADS
        // the size is what requests may use: the threads leased to the acceptor(s) and selector(s) never run one
        is QueuedThreadPool -> Pool("jetty.threads", pool.maxAvailableThreads.takeIf { it > 0 } ?: pool.maxThreads, Kind.THREADS, Source.RUNTIME,
            "QueuedThreadPool of ${pool.maxThreads} threads (server.jetty.threads.max), ${pool.minThreads} kept (.min); " +
                "${pool.leasedThreads} leased$shared, the rest run requests") to Execution.PLATFORM_THREADS
        else -> Pool("jetty.threads", pool.threads, Kind.THREADS, Source.RUNTIME, "${pool.javaClass.name}, shared$shared") to
            Execution.PLATFORM_THREADS
    }
}
