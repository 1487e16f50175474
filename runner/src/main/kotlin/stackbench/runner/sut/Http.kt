package stackbench.runner.sut

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
 * and are not affected.
 */
class Http(connectTimeout: Duration = Duration.ofSeconds(2)) {
    private val client = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1).build()

    companion object {
        init {
            // java.net.http only sends a Connection header when told it may; set before the first client exists
            val allowed = System.getProperty("jdk.httpclient.allowRestrictedHeaders").orEmpty()
            if ("connection" !in allowed.lowercase()) {
                System.setProperty("jdk.httpclient.allowRestrictedHeaders", listOf(allowed, "connection").filter { it.isNotEmpty() }.joinToString(","))
            }
        }
    }

    fun call(
        url: URI,
        method: String = "GET",
        body: String? = null,
        basicAuth: Pair<String, String>? = null,
        timeout: Duration = Duration.ofSeconds(10),
    ): Answer {
        val builder = HttpRequest.newBuilder(url).timeout(timeout).header("Connection", "close")
        if (basicAuth != null) {
            val token = Base64.getEncoder().encodeToString("${basicAuth.first}:${basicAuth.second}".toByteArray())
            builder.header("Authorization", "Basic $token")
        }
        if (body != null) builder.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body))
        else builder.method(method, HttpRequest.BodyPublishers.noBody())
        val start = System.nanoTime()
        val response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString())
        return Answer(response.statusCode(), response.body(), (System.nanoTime() - start) / 1e6)
    }

    /** Status only, or null when nothing answers (refused, timed out). */
    fun statusOf(url: URI, timeout: Duration = Duration.ofSeconds(2)): Int? =
        runCatching { call(url, timeout = timeout).status }.getOrNull()
}
