package stackbench.apps.endpoints.info.servers

import io.netty.util.concurrent.MultithreadEventExecutorGroup
import reactor.netty.http.HttpResources
import reactor.netty.http.server.HttpServer
import reactor.netty.resources.LoopResources
import stackbench.apps.endpoints.info.Execution
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.ServerDescription
import stackbench.apps.endpoints.info.Source
import stackbench.contract.Pool

/**
 * Reads the live Reactor Netty server loops of WebFlux: Spring Boot serves on Reactor Netty's global resources,
 * the same loops the WebClient uses. The same code on both Boot lines.
 */
object ReactorNettyServers {
    private const val IO_WORKER_COUNT = "reactor.netty.ioWorkerCount"

    fun describe(virtualThreads: Boolean): ServerDescription {
        val loops = (HttpResources.get().onServer(LoopResources.DEFAULT_NATIVE) as? MultithreadEventExecutorGroup)?.executorCount()
        val pool = Pool("netty.event-loops", loops ?: LoopResources.DEFAULT_IO_WORKER_COUNT, Kind.EVENT_LOOPS,
            if (loops != null) Source.RUNTIME else Source.of(System.getProperty(IO_WORKER_COUNT) != null),
            "Reactor Netty server loops, shared with the WebClient: -D$IO_WORKER_COUNT, default max(processors, 4)")
        return ServerDescription("Reactor Netty", JarVersions.of(HttpServer::class.java) ?: "unknown",
            if (virtualThreads) Execution.EVENT_LOOP_AND_VIRTUAL_THREADS else Execution.EVENT_LOOP, listOf(pool))
    }
}
