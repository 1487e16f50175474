package stackbench.apps.endpoints.downstream

import org.apache.hc.client5.http.async.methods.SimpleHttpResponse
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder
import org.apache.hc.client5.http.config.ConnectionConfig
import org.apache.hc.client5.http.config.RequestConfig
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient
import org.apache.hc.client5.http.impl.async.HttpAsyncClients
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder
import org.apache.hc.core5.concurrent.FutureCallback
import org.apache.hc.core5.io.CloseMode
import org.apache.hc.core5.reactor.IOReactorConfig
import org.apache.hc.core5.util.Timeout
import org.springframework.beans.factory.DisposableBean
import org.springframework.core.annotation.Order
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.PoolReporter
import stackbench.apps.endpoints.info.Source
import stackbench.contract.DownstreamClient
import stackbench.contract.Pool
import java.util.concurrent.CompletableFuture

/**
 * Apache HttpClient 5 async, created once, for `cf-apache` (a CompletableFuture) and `mono-apache`
 * (Mono.fromCompletionStage). Its pool allows `stackbench.downstream.max-connections` connections in total and
 * per route (one route: the downstream service).
 */
@Component
@Order(21)
class ApacheAsyncDownstream(private val target: DownstreamTarget) : PoolReporter, DisposableBean {
    private val ioThreads = Runtime.getRuntime().availableProcessors()
    private val connections: PoolingAsyncClientConnectionManager = PoolingAsyncClientConnectionManagerBuilder.create()
        .setMaxConnTotal(target.maxConnections)
        .setMaxConnPerRoute(target.maxConnections)
        .setDefaultConnectionConfig(
            ConnectionConfig.custom().setConnectTimeout(Timeout.of(DownstreamTarget.CONNECT_TIMEOUT)).build(),
        )
        .build()
    private val http: CloseableHttpAsyncClient = HttpAsyncClients.custom()
        .setConnectionManager(connections)
        .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(ioThreads).build())
        .disableAutomaticRetries()
        .build()
        .apply { start() }

    fun get(client: DownstreamClient, delayMs: Long): CompletableFuture<String> {
        val uri = target.uri(delayMs)
        val deadline = Timeout.of(target.deadline(delayMs))
        val request = SimpleRequestBuilder.get(uri)
            .setRequestConfig(RequestConfig.custom().setResponseTimeout(deadline).setConnectionRequestTimeout(deadline).build())
            .build()
        val result = CompletableFuture<String>()
        http.execute(request, object : FutureCallback<SimpleHttpResponse> {
            override fun completed(response: SimpleHttpResponse) {
                if (response.code == 200) result.complete(response.bodyText)
                else result.completeExceptionally(DownstreamException.status(client, uri, response.code))
            }

            override fun failed(error: Exception) {
                result.completeExceptionally(DownstreamException.of(client, uri, error))
            }

            override fun cancelled() {
                result.completeExceptionally(DownstreamException(client, uri, "cancelled"))
            }
        })
        return result
    }

    override fun pools() = listOf(
        Pool("downstream.apache-async.connections", connections.maxTotal, Kind.CONNECTIONS, Source.RUNTIME,
            "Apache HttpClient 5 async pool of cf-apache, mono-apache (max per route ${connections.defaultMaxPerRoute}); stackbench.downstream.max-connections"),
        Pool("downstream.apache-async.io-threads", ioThreads, Kind.EVENT_LOOPS, Source.DEFAULT,
            "Apache HttpClient 5 I/O reactor threads: available processors"),
    )

    override fun destroy() {
        http.close(CloseMode.GRACEFUL)
    }
}
