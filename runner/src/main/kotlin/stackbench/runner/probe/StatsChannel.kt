package stackbench.runner.probe

import tools.jackson.databind.JsonNode
import tools.jackson.databind.ObjectMapper
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration

/**
 * One endpoint's work as the app counts it: requests that did it, the CPU time it took on their threads, and how
 * many of them could not be measured (a wait on a virtual thread, a timer, an async client: counted, no CPU).
 */
data class WorkCount(val count: Long, val cpuNanos: Long, val unmeasured: Long = 0) {
    val measured: Long get() = count - unmeasured

    companion object {
        /**
         * The work's CPU per request between two readings of one path, ns, over the requests whose work was
         * measured ([from] null: since the app started); null when none was: no figure, not a zero.
         */
        fun nanosPerRequest(from: WorkCount?, to: WorkCount?): Double? {
            to ?: return null
            val measured = to.measured - (from?.measured ?: 0)
            return if (measured > 0) (to.cpuNanos - (from?.cpuNanos ?: 0)).toDouble() / measured else null
        }
    }
}

/**
 * A reading of the app's stats channel, stamped by the app itself: its completed-exchange counter and the
 * JVM's own signals (process CPU, JIT compilation, GC, loaded classes, each endpoint's work CPU). The JVM
 * signals are null for an app that does not report them.
 */
data class ServerCount(
    val epochMs: Long,
    val completed: Long,
    val processCpuNanos: Long? = null,
    /** The JIT compilers' accumulated time (CompilationMXBean), ms. */
    val compilationMs: Long? = null,
    val gcMs: Long? = null,
    val loadedClasses: Long? = null,
    /** By endpoint path without query, e.g. `/cpu/direct`. */
    val work: Map<String, WorkCount> = emptyMap(),
    /** Heap bytes allocated by every thread since the JVM started (null: the app's JVM does not say). */
    val allocatedBytes: Long? = null,
) {
    companion object {
        fun parse(node: JsonNode): ServerCount {
            fun long(name: String) = node.get(name)?.takeIf { it.isNumber }?.longValue()
            val work = node.get("work")?.takeIf { it.isObject }?.properties()?.associate { (path, w) ->
                path to WorkCount(w.path("count").asLong(), w.path("cpuNanos").asLong(), w.path("unmeasured").asLong(0))
            }.orEmpty()
            return ServerCount(
                node.get("epochMillis").asLong(), node.get("completed").asLong(),
                long("processCpuNanos"), long("compilationMillis"), long("gcMillis"), long("loadedClasses"), work,
                long("allocatedBytes"),
            )
        }
    }
}

/**
 * The app's stats side channel: `GET /stats` on a port served by its own thread, so it answers even when
 * every request thread or event loop is busy.
 */
class StatsChannel(private val url: URI, private val json: ObjectMapper) {
    private val client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build()

    fun read(timeout: Duration = Duration.ofMillis(200)): ServerCount? = runCatching {
        val response = client.send(HttpRequest.newBuilder(url).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString())
        if (response.statusCode() != 200) return null
        ServerCount.parse(json.readTree(response.body()))
    }.getOrNull()
}
