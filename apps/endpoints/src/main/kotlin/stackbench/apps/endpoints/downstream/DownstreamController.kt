package stackbench.apps.endpoints.downstream

import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import stackbench.contract.DownstreamAnswer
import stackbench.contract.DownstreamClient
import stackbench.contract.DownstreamClient.CF_APACHE
import stackbench.contract.DownstreamClient.CF_JAVA
import stackbench.contract.DownstreamClient.MONO_APACHE
import stackbench.contract.DownstreamClient.MONO_JAVA
import stackbench.contract.DownstreamClient.REST_CLIENT
import stackbench.contract.DownstreamClient.SUSPEND_WEBCLIENT
import stackbench.contract.DownstreamClient.SYNC_JAVA
import stackbench.contract.DownstreamClient.WEBCLIENT
import stackbench.contract.Parameter
import stackbench.contract.Paths
import stackbench.contract.PathVariable as PathVariableId
import java.util.concurrent.CompletableFuture

/**
 * `GET /downstream/{client}?delay=ms`: calls the downstream service's `/delay?ms=<delay>` with the client named
 * in the path (see [DownstreamClient]) and answers with its body inside. A failed call answers 502.
 */
@RestController
class DownstreamController(
    private val java: JavaHttpDownstream,
    private val apache: ApacheAsyncDownstream,
    private val webClient: WebClientDownstream,
    private val restClient: RestClientDownstream,
) {

    @GetMapping("/downstream/sync-java")
    fun syncJava(@RequestParam("delay", required = false) delay: String?): DownstreamAnswer {
        val ms = delayOf(delay)
        return answer(SYNC_JAVA, ms, java.send(SYNC_JAVA, ms))
    }

    @GetMapping("/downstream/cf-java")
    fun cfJava(@RequestParam("delay", required = false) delay: String?): CompletableFuture<DownstreamAnswer> {
        val ms = delayOf(delay)
        return java.sendAsync(CF_JAVA, ms).thenApply { answer(CF_JAVA, ms, it) }
    }

    @GetMapping("/downstream/cf-apache")
    fun cfApache(@RequestParam("delay", required = false) delay: String?): CompletableFuture<DownstreamAnswer> {
        val ms = delayOf(delay)
        return apache.get(CF_APACHE, ms).thenApply { answer(CF_APACHE, ms, it) }
    }

    @GetMapping("/downstream/mono-java")
    fun monoJava(@RequestParam("delay", required = false) delay: String?): Mono<DownstreamAnswer> {
        val ms = delayOf(delay)
        return Mono.fromFuture(java.sendAsync(MONO_JAVA, ms)).map { answer(MONO_JAVA, ms, it) }
    }

    @GetMapping("/downstream/webclient")
    fun webclient(@RequestParam("delay", required = false) delay: String?): Mono<DownstreamAnswer> {
        val ms = delayOf(delay)
        return webClient.get(WEBCLIENT, ms).map { answer(WEBCLIENT, ms, it) }
    }

    @GetMapping("/downstream/mono-apache")
    fun monoApache(@RequestParam("delay", required = false) delay: String?): Mono<DownstreamAnswer> {
        val ms = delayOf(delay)
        return Mono.fromCompletionStage(apache.get(MONO_APACHE, ms)).map { answer(MONO_APACHE, ms, it) }
    }

    @GetMapping("/downstream/rest-client")
    fun restClient(@RequestParam("delay", required = false) delay: String?): DownstreamAnswer {
        val ms = delayOf(delay)
        return answer(REST_CLIENT, ms, restClient.get(REST_CLIENT, ms))
    }

    @GetMapping("/downstream/suspend-webclient")
    suspend fun suspendWebclient(@RequestParam("delay", required = false) delay: String?): DownstreamAnswer {
        val ms = delayOf(delay)
        return answer(SUSPEND_WEBCLIENT, ms, webClient.await(SUSPEND_WEBCLIENT, ms))
    }

    /** Any other id: 400 naming `client` and the known ids. */
    @GetMapping(Paths.DOWNSTREAM)
    fun unknown(@PathVariable("client") client: String): DownstreamAnswer =
        throw PathVariableId.CLIENT.unknown(client, DownstreamClient.entries)

    private fun delayOf(raw: String?): Long = Parameter.DELAY.parse(raw)

    private fun answer(client: DownstreamClient, ms: Long, body: String) = DownstreamAnswer(client.id, ms, body)
}
