package stackbench.runner.catalog

import java.nio.file.Path

/** The programming model a stack serves requests with. */
enum class WebModel { SERVLET, REACTIVE }

/** The Spring Boot lines the lab builds apps on. */
enum class BootLine(val id: String) {
    BOOT_4_1("4.1"),
    BOOT_3_5("3.5");

    companion object {
        fun byId(id: String): BootLine? = entries.firstOrNull { it.id == id }
    }
}

/**
 * Every system under test the lab can start: a server stack on a Spring Boot line, and the jar that the
 * build makes for it (a path relative to the project root).
 */
enum class Stack(val id: String, val boot: BootLine, val model: WebModel, val jar: String, val server: String) {
    TOMCAT("tomcat", BootLine.BOOT_4_1, WebModel.SERVLET, "apps/boot4/tomcat/target/app-tomcat-boot4.jar", "Tomcat 11"),
    JETTY("jetty", BootLine.BOOT_4_1, WebModel.SERVLET, "apps/boot4/jetty/target/app-jetty-boot4.jar", "Jetty 12.1"),
    WEBFLUX("webflux", BootLine.BOOT_4_1, WebModel.REACTIVE, "apps/boot4/webflux/target/app-webflux-boot4.jar", "Reactor Netty"),
    TOMCAT_BOOT3("tomcat", BootLine.BOOT_3_5, WebModel.SERVLET, "apps/boot3/tomcat/target/app-tomcat-boot3.jar", "Tomcat 10.1"),
    UNDERTOW("undertow", BootLine.BOOT_3_5, WebModel.SERVLET, "apps/boot3/undertow/target/app-undertow-boot3.jar", "Undertow 2.3"),
    WEBFLUX_BOOT3("webflux", BootLine.BOOT_3_5, WebModel.REACTIVE, "apps/boot3/webflux/target/app-webflux-boot3.jar", "Reactor Netty");

    /**
     * The pool a blocking handler waits on: the server's request threads (bounded or not, as `/info` reports it),
     * WebFlux's event loops, or none (a virtual thread of its own). The ceilings' Little's law counts it.
     */
    fun requestPool(virtualThreads: Boolean): RequestPool = when (this) {
        TOMCAT, TOMCAT_BOOT3 -> RequestPool("tomcat.threads", "request threads") // unbounded (null) with virtual threads
        JETTY -> RequestPool("jetty.threads", if (virtualThreads) "concurrent tasks" else "request threads") // bounded either way
        UNDERTOW -> if (virtualThreads) RequestPool("undertow.servlet-executor", "virtual threads") else RequestPool("undertow.worker-threads", "worker threads")
        WEBFLUX, WEBFLUX_BOOT3 -> if (virtualThreads) RequestPool(null, "a virtual thread per request, unbounded") else RequestPool("netty.event-loops", "event loops")
    }

    /** How results and plans name it: `tomcat`, or `tomcat@3.5` off the default line. */
    val label: String get() = if (boot == defaultLine(id)) id else "$id@${boot.id}"

    fun jarPath(home: Path): Path = home.resolve(jar)

    companion object {
        val ids: List<String> = entries.map { it.id }.distinct()

        /** The line a stack id means when the suite names no line: 4.1, but for Undertow, which only 3.5 has. */
        fun defaultLine(id: String): BootLine? = entries.filter { it.id == id }.map { it.boot }.minByOrNull { it.ordinal }

        fun find(id: String, boot: BootLine?): Stack? {
            val line = boot ?: defaultLine(id) ?: return null
            return entries.firstOrNull { it.id == id && it.boot == line }
        }

        fun linesOf(id: String): List<BootLine> = entries.filter { it.id == id }.map { it.boot }
    }
}

/** A pool of the app's `/info` that a request holds while it waits ([pool] null: none, it has a thread of its own), and what its units are. */
data class RequestPool(val pool: String?, val what: String)

/** The non-blocking delay service that `/downstream/...` endpoints call. */
object DownstreamJar {
    const val PATH = "apps/downstream/target/downstream.jar"
}
