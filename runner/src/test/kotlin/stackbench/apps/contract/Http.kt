package stackbench.apps.contract

import tools.jackson.databind.json.JsonMapper
import tools.jackson.module.kotlin.kotlinModule
import tools.jackson.module.kotlin.readValue
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import java.util.Base64
import java.util.concurrent.CompletableFuture

/** An answer and how long it took, from sending the request to the last byte of the body. */
data class Answer(val status: Int, val body: String, val millis: Long) {
    inline fun <reified T> json(): T = Http.JSON.readValue(body)
    override fun toString() = "$status after ${millis}ms: ${body.take(500)}"
}

/**
 * A plain java.net.http client for the tests: every call with a deadline, never a hang. With [keepAlive] false every
 * request asks for its connection to be closed after the answer.
 */
class Http(
    private val base: String,
    private val keepAlive: Boolean = true,
    private val timeout: Duration = Duration.ofSeconds(30),
) : AutoCloseable {
    private val client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build()

    /** [credentials] as `user:password`, sent as HTTP Basic. */
    fun get(path: String, credentials: String? = null) = send(request(path, credentials).GET().build())

    fun post(path: String, json: String, credentials: String? = null) =
        send(request(path, credentials).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build())

    /** Sends [paths] at once and answers them in the same order. */
    fun getAll(paths: List<String>): List<Answer> =
        paths.map { sendAsync(request(it, null).GET().build()) }.map { it.join() }

    private fun request(path: String, credentials: String?): HttpRequest.Builder {
        val builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
        if (credentials != null) builder.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.toByteArray()))
        if (!keepAlive) builder.header("Connection", "close")
        return builder
    }

    private fun send(request: HttpRequest): Answer = sendAsync(request).join()

    private fun sendAsync(request: HttpRequest): CompletableFuture<Answer> {
        val started = System.nanoTime()
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
            .handle { response, error ->
                if (error != null) throw AssertionError("${request.method()} ${request.uri()} failed: ${error.cause ?: error}", error)
                Answer(response.statusCode(), response.body(), (System.nanoTime() - started) / 1_000_000)
            }
    }

    override fun close() = client.close()

    companion object {
        val JSON: JsonMapper = JsonMapper.builder().addModule(kotlinModule()).build()
    }
}
