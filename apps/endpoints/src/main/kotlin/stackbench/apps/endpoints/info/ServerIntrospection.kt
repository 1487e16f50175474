package stackbench.apps.endpoints.info

import stackbench.contract.Pool

/**
 * What each stack module tells about its web server: the one piece of code that differs per stack.
 * Implementations read the live server object where they can.
 */
interface ServerIntrospection {
    /** The stack id: `tomcat`, `jetty`, `undertow`, `webflux`. */
    val stack: String

    /** [Model.SERVLET] or [Model.REACTIVE]. */
    val model: String

    fun describe(virtualThreads: Boolean): ServerDescription
}

/** The web server as it runs: its name and version, where request work runs, the pools that bound it. */
data class ServerDescription(
    val server: String,
    val version: String,
    val requestExecution: String,
    val pools: List<Pool>,
)

object Model {
    const val SERVLET = "servlet"
    const val REACTIVE = "reactive"
}

/** The values of `AppInfo.requestExecution`. */
object Execution {
    const val PLATFORM_THREADS = "platform threads"
    const val VIRTUAL_THREADS = "virtual threads"
    const val EVENT_LOOP = "event loop"
    const val EVENT_LOOP_AND_VIRTUAL_THREADS =
        "event loop; handler methods that do not return a reactive type run on virtual threads (WebFlux blocking execution)"
}
