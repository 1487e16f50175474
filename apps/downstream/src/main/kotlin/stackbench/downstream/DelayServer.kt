package stackbench.downstream

import io.netty.handler.codec.http.HttpHeaderNames
import io.netty.handler.codec.http.HttpResponseStatus
import io.netty.handler.codec.http.QueryStringDecoder
import org.reactivestreams.Publisher
import reactor.core.publisher.Mono
import reactor.netty.DisposableServer
import reactor.netty.http.server.HttpServer
import reactor.netty.http.server.HttpServerRequest
import reactor.netty.http.server.HttpServerResponse
import stackbench.contract.BadParameterException
import stackbench.contract.DownstreamService
import stackbench.contract.Parameter
import tools.jackson.databind.json.JsonMapper
import java.time.Duration

/**
 * `GET /delay?ms=N`: answers [DownstreamService.body] after N ms (plus the stall hold, if any) on Reactor's timer,
 * holding no thread while it waits. `GET /health`: ok. Anything else: 404.
 */
class DelayServer(private val options: Options, private val nanoTime: () -> Long = System::nanoTime) {
    private val startNanos = nanoTime()

    fun start(): DisposableServer = HttpServer.create()
        .host(options.host)
        .port(options.port)
        .route { routes ->
            routes.get(DownstreamService.PATH, ::delay)
                .get(HEALTH) { _, response -> response.sendString(Mono.just("ok")) }
        }
        .bindNow()

    private fun delay(request: HttpServerRequest, response: HttpServerResponse): Publisher<Void> {
        val hold = options.stall.holdFor((nanoTime() - startNanos) / 1_000_000)
        val ms = try {
            delayMs(QueryStringDecoder(request.uri()).parameters()[MS]?.firstOrNull())
        } catch (e: BadParameterException) {
            return response.status(HttpResponseStatus.BAD_REQUEST).json(Mono.just(JSON.writeValueAsString(e.body())))
        }
        return response.json(Mono.delay(Duration.ofMillis(ms + hold)).map { DownstreamService.body(ms) })
    }

    private fun HttpServerResponse.json(body: Mono<String>) =
        header(HttpHeaderNames.CONTENT_TYPE, "application/json").sendString(body)

    companion object {
        const val MS = "ms"
        const val HEALTH = "/health"
        private val JSON = JsonMapper.builder().build()

        /** The `ms` query parameter: a whole number of milliseconds in the range of the apps' `delay`. */
        fun delayMs(raw: String?): Long {
            val value = raw?.toLongOrNull()
            val reason = when {
                raw.isNullOrEmpty() -> "is required"
                value == null -> "is not a whole number"
                value !in Parameter.DELAY.range -> "is out of range"
                else -> return value
            }
            throw BadParameterException(MS, raw, Parameter.DELAY.allowed, reason)
        }
    }
}
