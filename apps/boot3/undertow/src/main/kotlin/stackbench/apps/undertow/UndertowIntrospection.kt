package stackbench.apps.undertow

import io.undertow.Version
import org.springframework.boot.web.context.WebServerApplicationContext
import org.springframework.boot.web.embedded.undertow.UndertowServletWebServer
import org.springframework.context.ApplicationContext
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.info.Execution
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.Model
import stackbench.apps.endpoints.info.ServerDescription
import stackbench.apps.endpoints.info.ServerIntrospection
import stackbench.apps.endpoints.info.Source
import stackbench.contract.Pool

/** Reads the live Undertow: its XNIO worker (I/O and task threads) and the servlet deployment's executor. */
@Component
class UndertowIntrospection(private val context: ApplicationContext) : ServerIntrospection {
    override val stack = "undertow"
    override val model = Model.SERVLET

    override fun describe(virtualThreads: Boolean): ServerDescription {
        val server = (context as WebServerApplicationContext).webServer as UndertowServletWebServer
        val worker = server.undertow.worker.mxBean
        val servletExecutor = server.deploymentManager.deployment.deploymentInfo.executor
        val pools = mutableListOf(
            Pool("undertow.io-threads", worker.ioThreadCount, Kind.EVENT_LOOPS, Source.RUNTIME,
                "XNIO I/O threads (server.undertow.threads.io, default max(2, processors))"),
            Pool("undertow.worker-threads", worker.maxWorkerPoolSize, Kind.THREADS, Source.RUNTIME,
                "XNIO worker task pool, ${worker.coreWorkerPoolSize} core (server.undertow.threads.worker, default 8 x I/O threads)" +
                    if (servletExecutor != null) "; not used for requests while they run on virtual threads" else ""),
        )
        if (servletExecutor != null) {
            pools.add(0, Pool("undertow.servlet-executor", null, Kind.VIRTUAL_THREADS, Source.RUNTIME,
                "DeploymentInfo executor set by stackbench for spring.threads.virtual.enabled: one virtual thread per request"))
        }
        return ServerDescription("Undertow", Version.getVersionString(),
            if (servletExecutor != null) Execution.VIRTUAL_THREADS else Execution.PLATFORM_THREADS, pools)
    }
}
