package stackbench.runner.sut

import stackbench.runner.suite.Secrets
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import java.util.Base64

/** One answer, with how long it took. */
data class Answer(val status: Int, val body: String, val elapsedMs: Double)

/**
 * The runner's own HTTP calls to the apps (readiness, verification, /info, the idle probe): plain
 * java.net.http, each on a connection of its own (`Connection: close`). Reusing one connection across
 * different endpoints can hang Reactor Netty 1.2/1.3.7 (an async answer followed by a sync one stops the
 * connection reading: reactor-netty#4361, see docs/apps.md); load generators send one URL per connection
 * and are not affected. When the JVM refuses that header (see [connectionHeader]), each call has a client of its own.
 */
class Http(private val connectTimeout: Duration = Duration.ofSeconds(2)) {
    private val client = newClient()

    private fun newClient(): HttpClient = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1).build()

    companion object {
        init {
            // java.net.http only sends a Connection header when told it may; set before the first client exists
            val allowed = System.getProperty("jdk.httpclient.allowRestrictedHeaders").orEmpty()
            if ("connection" !in allowed.lowercase()) {
                System.setProperty("jdk.httpclient.allowRestrictedHeaders", listOf(allowed, "connection").filter { it.isNotEmpty() }.joinToString(","))
            }
        }

        /**
         * Whether this JVM lets a request carry `Connection: close`: not when another java.net.http client (the
         * browser check's, a library's) was made before this class set the property; then every call gets a
         * client of its own instead, which no later call reuses either.
         */
        private val connectionHeader: Boolean =
            runCatching { HttpRequest.newBuilder(URI("http://127.0.0.1/")).header("Connection", "close") }.isSuccess
    }

    fun call(
        url: URI,
        method: String = "GET",
        body: String? = null,
        basicAuth: Pair<String, String>? = null,
        timeout: Duration = Duration.ofSeconds(10),
        headers: Map<String, String> = emptyMap(),
    ): Answer {
        // `${'$'}{env:NAME}` values are put in here, as the request leaves: the callers keep the placeholders
        val builder = HttpRequest.newBuilder(URI(Secrets.expand(url.toString()))).timeout(timeout)
        if (connectionHeader) builder.header("Connection", "close")
        if (basicAuth != null) {
            val token = Base64.getEncoder().encodeToString("${basicAuth.first}:${basicAuth.second}".toByteArray())
            builder.header("Authorization", "Basic $token")
        }
        stackbench.runner.suite.RequestHeaders.of(body, headers).forEach { (k, v) -> builder.header(k, Secrets.expand(v)) }
        if (body != null) builder.method(method, HttpRequest.BodyPublishers.ofString(Secrets.expand(body)))
        else builder.method(method, HttpRequest.BodyPublishers.noBody())
        val start = System.nanoTime()
        val response = if (connectionHeader) client.send(builder.build(), HttpResponse.BodyHandlers.ofString())
        else newClient().use { it.send(builder.build(), HttpResponse.BodyHandlers.ofString()) }
        return Answer(response.statusCode(), response.body(), (System.nanoTime() - start) / 1e6)
    }

    /** Status only, or null when nothing answers (refused, timed out). */
    fun statusOf(url: URI, timeout: Duration = Duration.ofSeconds(2)): Int? =
        runCatching { call(url, timeout = timeout).status }.getOrNull()
}
