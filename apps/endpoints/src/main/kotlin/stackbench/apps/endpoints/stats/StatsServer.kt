package stackbench.apps.endpoints.stats

import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import org.slf4j.LoggerFactory
import org.springframework.boot.json.JsonWriter
import org.springframework.context.SmartLifecycle
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.PlatformThreads
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.contract.EndpointWork
import stackbench.contract.Stats
import java.net.InetSocketAddress
import java.util.concurrent.ExecutorService
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.ThreadPoolExecutor
import java.util.concurrent.TimeUnit

/**
 * The stats side channel: `GET /stats` on `stackbench.stats.address:stackbench.stats.port` (off when the port is 0),
 * served by the JDK's small HTTP server on one platform thread of its own, so that it answers while every request
 * thread or event loop of the app is busy or blocked. The lab takes that thread and the server's dispatcher out of the
 * app's CPU limits once the app is up ([Stats.SERVER_THREADS]).
 */
@Component
class StatsServer(properties: StackbenchProperties, private val stats: StatsReader) : SmartLifecycle {
    private val settings = properties.stats
    private var server: HttpServer? = null
    private var executor: ExecutorService? = null

    override fun start() {
        if (settings.port == 0) return
        // its one thread started now, so that both of the channel's threads (Stats.SERVER_THREADS) run once the app is up
        val thread = ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, LinkedBlockingQueue(), PlatformThreads.named(Stats.HANDLER_THREAD))
        thread.prestartCoreThread()
        val http = HttpServer.create(InetSocketAddress(settings.address, settings.port), 64)
        http.createContext(Stats.PATH, ::answer)
        http.executor = thread
        http.start()
        executor = thread
        server = http
        log.info("stackbench: stats side channel on http://{}:{}{}", settings.address, http.address.port, Stats.PATH)
    }

    private fun answer(exchange: HttpExchange) {
        exchange.use {
            if (it.requestMethod != "GET" || it.requestURI.path != Stats.PATH) {
                it.sendResponseHeaders(if (it.requestMethod != "GET") 405 else 404, -1)
                return
            }
            val body = JSON.writeToString(stats.read()).toByteArray()
            it.responseHeaders.add("Content-Type", "application/json")
            it.sendResponseHeaders(200, body.size.toLong())
            it.responseBody.write(body)
        }
    }

    override fun stop() {
        server?.stop(0)
        executor?.shutdownNow()
        server = null
        executor = null
    }

    override fun isRunning(): Boolean = server != null

    companion object {
        private val log = LoggerFactory.getLogger(StatsServer::class.java)

        private val WORK: JsonWriter<EndpointWork> = JsonWriter.of { members ->
            members.add("count", EndpointWork::count)
            members.add("cpuNanos", EndpointWork::cpuNanos)
            members.add("unmeasured", EndpointWork::unmeasured)
        }

        /**
         * Spring Boot's JSON writer: the same API on Boot 3.5 and 4.1, whichever Jackson the app carries. The names
         * are [Stats]'s and [EndpointWork]'s; a null figure is left out.
         */
        val JSON: JsonWriter<Stats> = JsonWriter.of { members ->
            members.add("completed", Stats::completed)
            members.add("epochMillis", Stats::epochMillis)
            members.add("processCpuNanos", Stats::processCpuNanos).whenNotNull()
            members.add("compilationMillis", Stats::compilationMillis).whenNotNull()
            members.add("gcMillis", Stats::gcMillis)
            members.add("gcCount", Stats::gcCount)
            members.add("loadedClasses", Stats::loadedClasses)
            members.add("allocatedBytes", Stats::allocatedBytes).whenNotNull()
            members.add("work", Stats::work).`as` { work -> work.mapValues { (_, each) -> WORK.write(each) } }
        }
    }
}
