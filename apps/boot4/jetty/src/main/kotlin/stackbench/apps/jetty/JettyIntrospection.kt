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
 * Reads the live Jetty thread pool. With virtual threads, Spring Boot 4.1 gives Jetty a VirtualThreadPool whose
 * limit on concurrent tasks is `server.jetty.threads.max` (200 by default): unlike Tomcat's, it still bounds.
 */
@Component
class JettyIntrospection(private val context: ApplicationContext) : ServerIntrospection {
    override val stack = "jetty"
    override val model = Model.SERVLET

    override fun describe(virtualThreads: Boolean): ServerDescription {
        val server = ((context as WebServerApplicationContext).webServer as JettyWebServer).server
        val connector = server.connectors.filterIsInstance<ServerConnector>().firstOrNull()
        val shared = connector?.let { "; shared with ${it.acceptors} acceptor(s) and ${it.selectorManager.selectorCount} selector(s)" } ?: ""
        val (pool, execution) = requestPool(server.threadPool, shared)
        return ServerDescription("Eclipse Jetty", Jetty.VERSION, execution, listOf(pool))
    }

    private fun requestPool(pool: ThreadPool, shared: String): Pair<Pool, String> = when (pool) {
        is VirtualThreadPool -> Pool("jetty.threads", pool.maxConcurrentTasks.takeIf { it > 0 }, Kind.VIRTUAL_THREADS, Source.RUNTIME,
            "VirtualThreadPool: one virtual thread per task, at most this many tasks at once (server.jetty.threads.max)$shared") to
            Execution.VIRTUAL_THREADS
        is QueuedThreadPool -> Pool("jetty.threads", pool.maxThreads, Kind.THREADS, Source.RUNTIME,
            "QueuedThreadPool, ${pool.minThreads} kept (server.jetty.threads.max, .min)$shared") to Execution.PLATFORM_THREADS
        else -> Pool("jetty.threads", pool.threads, Kind.THREADS, Source.RUNTIME, "${pool.javaClass.name}$shared") to
            Execution.PLATFORM_THREADS
    }
}
