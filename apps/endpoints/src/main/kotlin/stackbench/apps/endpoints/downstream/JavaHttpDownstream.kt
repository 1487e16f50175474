package stackbench.apps.endpoints.downstream

import org.springframework.beans.factory.DisposableBean
import org.springframework.core.annotation.Order
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.PoolReporter
import stackbench.apps.endpoints.info.Source
import stackbench.contract.DownstreamClient
import stackbench.contract.Pool
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.util.concurrent.CompletableFuture

/**
 * The JDK's java.net.http client, created once, for `sync-java` (send, blocking), `cf-java` (sendAsync) and
 * `mono-java` (Mono.fromFuture over sendAsync). It puts no limit on concurrent connections.
 */
@Component
@Order(20)
class JavaHttpDownstream(private val target: DownstreamTarget) : PoolReporter, DisposableBean {
    private val http: HttpClient = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(DownstreamTarget.CONNECT_TIMEOUT)
        .build()

    /** Blocks the calling thread until the body arrives. */
    fun send(client: DownstreamClient, delayMs: Long): String {
        val request = request(delayMs)
        val response = try {
            http.send(request, HttpResponse.BodyHandlers.ofString())
        } catch (e: InterruptedException) {
            Thread.currentThread().interrupt()
            throw DownstreamException.of(client, request.uri(), e)
        } catch (e: Exception) {
            throw DownstreamException.of(client, request.uri(), e)
        }
        return body(client, response)
    }

    fun sendAsync(client: DownstreamClient, delayMs: Long): CompletableFuture<String> {
        val request = request(delayMs)
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).handle { response, error ->
            if (error != null) throw DownstreamException.of(client, request.uri(), error)
            body(client, response)
        }
    }

    private fun request(delayMs: Long): HttpRequest =
        HttpRequest.newBuilder(target.uri(delayMs)).timeout(target.deadline(delayMs)).GET().build()

    private fun body(client: DownstreamClient, response: HttpResponse<String>): String {
        if (response.statusCode() != 200) throw DownstreamException.status(client, response.uri(), response.statusCode())
        return response.body()
    }

    override fun pools() = listOf(
        Pool("downstream.java-httpclient.connections", null, Kind.CONNECTIONS, Source.DEFAULT,
            "java.net.http.HttpClient of sync-java, cf-java, mono-java: no limit on concurrent connections " +
                "(jdk.httpclient.connectionPoolSize caps only the idle ones kept for reuse)"),
    )

    override fun destroy() {
        // HttpClient.shutdownNow is JDK 21+; on JDK 17 (Boot 3.5 apps) the client's daemon threads end with the JVM
        if (Runtime.version().feature() >= 21) http.shutdownNow()
    }
}
