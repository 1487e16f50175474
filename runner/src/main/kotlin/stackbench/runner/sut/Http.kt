package stackbench.runner.sut

import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import java.util.Base64

/** One answer, with how long it took. */
data class Answer(val status: Int, val body: String, val elapsedMs: Double)

/** The runner's own HTTP calls to the apps (readiness, verification, /info): plain java.net.http. */
class Http(connectTimeout: Duration = Duration.ofSeconds(2)) {
    private val client = HttpClient.newBuilder().connectTimeout(connectTimeout).version(HttpClient.Version.HTTP_1_1).build()

    fun call(
        url: URI,
        method: String = "GET",
        body: String? = null,
        basicAuth: Pair<String, String>? = null,
        timeout: Duration = Duration.ofSeconds(10),
    ): Answer {
        val builder = HttpRequest.newBuilder(url).timeout(timeout)
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
