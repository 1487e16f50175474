package stackbench.apps.endpoints.info.servers

import org.apache.catalina.connector.Connector
import org.apache.catalina.util.ServerInfo
import org.apache.coyote.AbstractProtocol
import stackbench.apps.endpoints.info.Execution
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.ServerDescription
import stackbench.apps.endpoints.info.Source
import stackbench.contract.Pool
import java.util.concurrent.Executor

/**
 * Reads a live Tomcat connector: the same code for Tomcat 10.1 (Boot 3.5) and 11 (Boot 4.1); the stack modules
 * only find the connector, whose Spring Boot class moved between the two lines.
 */
object TomcatServers {
    fun describe(connector: Connector): ServerDescription {
        val protocol = connector.protocolHandler
        val (requestPool, execution) = requestPool(protocol.executor)
        val pools = mutableListOf(requestPool)
        if (protocol is AbstractProtocol<*>) {
            pools += Pool("tomcat.max-connections", protocol.maxConnections.takeIf { it > 0 }, Kind.CONNECTIONS, Source.RUNTIME,
                "connections the connector accepts at once (server.tomcat.max-connections); accept queue ${protocol.acceptCount} (server.tomcat.accept-count)")
        }
        val info = ServerInfo.getServerInfo() // "Apache Tomcat/11.0.24"
        return ServerDescription(info.substringBefore('/'), info.substringAfter('/'), execution, pools)
    }

    private fun requestPool(executor: Executor?): Pair<Pool, String> = when (executor) {
        is org.apache.tomcat.util.threads.ThreadPoolExecutor -> Pool("tomcat.threads", executor.maximumPoolSize, Kind.THREADS,
            Source.RUNTIME, "connector executor, ${executor.corePoolSize} kept (server.tomcat.threads.max, .min-spare)") to Execution.PLATFORM_THREADS
        is java.util.concurrent.ThreadPoolExecutor -> Pool("tomcat.threads", executor.maximumPoolSize, Kind.THREADS,
            Source.RUNTIME, "connector executor ${executor.javaClass.name}") to Execution.PLATFORM_THREADS
        null -> Pool("tomcat.threads", null, Kind.THREADS, Source.RUNTIME, "no connector executor") to Execution.PLATFORM_THREADS
        else -> Pool("tomcat.threads", null, Kind.VIRTUAL_THREADS, Source.RUNTIME,
            "connector executor ${executor.javaClass.simpleName}: one virtual thread per request") to Execution.VIRTUAL_THREADS
    }
}
