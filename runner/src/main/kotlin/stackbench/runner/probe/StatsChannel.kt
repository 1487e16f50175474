package stackbench.runner.probe

import tools.jackson.databind.ObjectMapper
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration

/** A reading of the app's completed-exchange counter, stamped by the app itself. */
data class ServerCount(val epochMs: Long, val completed: Long)

/**
 * The app's stats side channel: `GET /stats` on a port served by its own thread, so it answers even when
 * every request thread or event loop is busy.
 */
class StatsChannel(private val url: URI, private val json: ObjectMapper) {
    private val client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(200)).build()

    fun read(timeout: Duration = Duration.ofMillis(200)): ServerCount? = runCatching {
        val response = client.send(HttpRequest.newBuilder(url).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString())
        if (response.statusCode() != 200) return null
        val node = json.readTree(response.body())
        ServerCount(node.get("epochMillis").asLong(), node.get("completed").asLong())
    }.getOrNull()
}
