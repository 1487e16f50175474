package stackbench.downstream

import io.netty.channel.EventLoop
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
import java.util.concurrent.TimeUnit

/**
 * `GET /delay?ms=N`: answers [DownstreamService.body] after N ms (plus the stall hold, if any) on a timer of the
 * connection's own event loop, holding no thread while it waits. `GET /health`: ok. Anything else: 404.
 *
 * Every answer, the immediate ones too, is completed by a later task of that event loop ([later]), never inside the
 * call that received the request. Reactor Netty 1.3.7 (the Spring Boot 4.1 line's) stops reading a keep-alive
 * connection when a request that arrived while the previous answer was still in flight is answered synchronously:
 * the next request on that connection then waits forever (reactor/reactor-netty#4361, fixed after 1.3.7). A client
 * that sent `/delay` and then `/health` and `/nothing` on one connection met it (DelayServerTest pins it).
 */
class DelayServer(private val options: Options, private val nanoTime: () -> Long = System::nanoTime) {
    private val startNanos = nanoTime()

    fun start(): DisposableServer = HttpServer.create()
        .host(options.host)
        .port(options.port)
        .route { routes ->
            routes.get(DownstreamService.PATH, ::delay)
                .get(HEALTH) { _, response -> response.sendString(response.later(0) { "ok" }) }
                .route({ true }) { _, response -> response.status(HttpResponseStatus.NOT_FOUND).sendString(response.later(0) { "not found" }) }
        }
        .bindNow()

    private fun delay(request: HttpServerRequest, response: HttpServerResponse): Publisher<Void> {
        val hold = options.stall.holdFor((nanoTime() - startNanos) / 1_000_000)
        val ms = try {
            delayMs(QueryStringDecoder(request.uri()).parameters()[MS]?.firstOrNull())
        } catch (e: BadParameterException) {
            return response.status(HttpResponseStatus.BAD_REQUEST).json(response.later(0) { JSON.writeValueAsString(e.body()) })
        }
        return response.json(response.later(ms + hold) { DownstreamService.body(ms) })
    }

    /** [body] after [ms] (0: at once), from a later task of this connection's event loop; cancelled with the request. */
    private fun HttpServerResponse.later(ms: Long, body: () -> String): Mono<String> {
        lateinit var loop: EventLoop
        withConnection { loop = it.channel().eventLoop() }
        return Mono.create { sink ->
            val answer = loop.schedule({ sink.success(body()) }, ms, TimeUnit.MILLISECONDS)
            sink.onCancel { answer.cancel(false) }
        }
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
