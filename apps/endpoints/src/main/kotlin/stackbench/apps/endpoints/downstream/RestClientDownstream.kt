package stackbench.apps.endpoints.downstream

import org.apache.hc.client5.http.config.ConnectionConfig
import org.apache.hc.client5.http.config.RequestConfig
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient
import org.apache.hc.client5.http.impl.classic.HttpClients
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder
import org.apache.hc.core5.util.Timeout
import org.springframework.beans.factory.DisposableBean
import org.springframework.core.annotation.Order
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory
import org.springframework.stereotype.Component
import org.springframework.web.client.RestClient
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.PoolReporter
import stackbench.apps.endpoints.info.Source
import stackbench.contract.DownstreamClient
import stackbench.contract.Pool

/**
 * Spring's RestClient, created once, for `rest-client` (blocking the calling thread). It runs on the classic
 * Apache HttpClient 5, the request factory Spring Boot picks when HttpClient 5 is on the classpath, with a pool
 * of `stackbench.downstream.max-connections` connections. Its timeout is set once, for the longest call allowed.
 */
@Component
@Order(23)
class RestClientDownstream(private val target: DownstreamTarget) : PoolReporter, DisposableBean {
    private val connections: PoolingHttpClientConnectionManager = PoolingHttpClientConnectionManagerBuilder.create()
        .setMaxConnTotal(target.maxConnections)
        .setMaxConnPerRoute(target.maxConnections)
        .setDefaultConnectionConfig(
            ConnectionConfig.custom()
                .setConnectTimeout(Timeout.of(DownstreamTarget.CONNECT_TIMEOUT))
                .setSocketTimeout(Timeout.of(DownstreamTarget.LONGEST))
                .build(),
        )
        .build()
    private val http: CloseableHttpClient = HttpClients.custom()
        .setConnectionManager(connections)
        .setDefaultRequestConfig(
            RequestConfig.custom()
                .setResponseTimeout(Timeout.of(DownstreamTarget.LONGEST))
                .setConnectionRequestTimeout(Timeout.of(DownstreamTarget.LONGEST))
                .build(),
        )
        .disableAutomaticRetries()
        .build()
    private val rest: RestClient = RestClient.builder().requestFactory(HttpComponentsClientHttpRequestFactory(http)).build()

    fun get(client: DownstreamClient, delayMs: Long): String {
        val uri = target.uri(delayMs)
        try {
            return rest.get().uri(uri).retrieve().body(String::class.java) ?: ""
        } catch (e: Exception) {
            throw DownstreamException.of(client, uri, e)
        }
    }

    override fun pools() = listOf(
        Pool("downstream.rest-client.connections", connections.maxTotal, Kind.CONNECTIONS, Source.RUNTIME,
            "Apache HttpClient 5 classic pool of rest-client (max per route ${connections.defaultMaxPerRoute}); stackbench.downstream.max-connections"),
    )

    override fun destroy() {
        http.close()
    }
}
