package stackbench.apps.endpoints.downstream

import io.netty.channel.ChannelOption
import kotlinx.coroutines.reactor.awaitSingle
import org.springframework.beans.factory.DisposableBean
import org.springframework.core.annotation.Order
import org.springframework.http.client.reactive.ReactorClientHttpConnector
import org.springframework.stereotype.Component
import org.springframework.web.reactive.function.client.WebClient
import reactor.core.publisher.Mono
import reactor.netty.http.client.HttpClient
import reactor.netty.resources.ConnectionProvider
import reactor.netty.resources.LoopResources
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.PoolReporter
import stackbench.apps.endpoints.info.Source
import stackbench.contract.DownstreamClient
import stackbench.contract.Pool

/**
 * Spring's WebClient over Reactor Netty, created once, for `webclient` (a Mono) and `suspend-webclient`
 * (awaited in a suspend function). Its connection pool allows `stackbench.downstream.max-connections`
 * connections, with an unbounded queue of requests waiting for one. It runs on Reactor Netty's global event
 * loops: on WebFlux, the same loops that serve the requests.
 */
@Component
@Order(22)
class WebClientDownstream(private val target: DownstreamTarget) : PoolReporter, DisposableBean {
    private val connections: ConnectionProvider = ConnectionProvider.builder("stackbench-downstream")
        .maxConnections(target.maxConnections)
        .pendingAcquireMaxCount(-1)
        .pendingAcquireTimeout(DownstreamTarget.LONGEST)
        .build()
    private val web: WebClient = WebClient.builder()
        .clientConnector(
            ReactorClientHttpConnector(
                HttpClient.create(connections)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, DownstreamTarget.CONNECT_TIMEOUT.toMillis().toInt()),
            ),
        )
        .build()

    fun get(client: DownstreamClient, delayMs: Long): Mono<String> {
        val uri = target.uri(delayMs)
        return web.get().uri(uri).retrieve().bodyToMono(String::class.java)
            .timeout(target.deadline(delayMs))
            .onErrorMap { DownstreamException.of(client, uri, it) }
    }

    suspend fun await(client: DownstreamClient, delayMs: Long): String = get(client, delayMs).awaitSingle()

    override fun pools() = listOf(
        Pool("downstream.webclient.connections", connections.maxConnections().takeIf { it > 0 } ?: target.maxConnections,
            Kind.CONNECTIONS, Source.RUNTIME,
            "Reactor Netty pool of webclient, suspend-webclient (pending acquires unbounded); stackbench.downstream.max-connections"),
        Pool("downstream.webclient.event-loops", LoopResources.DEFAULT_IO_WORKER_COUNT, Kind.EVENT_LOOPS,
            Source.of(System.getProperty("reactor.netty.ioWorkerCount") != null),
            "Reactor Netty global loops the WebClient runs on: -Dreactor.netty.ioWorkerCount, default max(processors, 4)"),
    )

    override fun destroy() {
        connections.dispose()
    }
}
