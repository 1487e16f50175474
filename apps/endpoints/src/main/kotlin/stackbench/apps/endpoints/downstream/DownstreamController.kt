package stackbench.apps.endpoints.downstream

import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import stackbench.apps.endpoints.stats.WorkCounters
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
 *
 * The call is each request's work ([WorkCounters]), counted when it ends, successful or not. The blocking clients
 * (`sync-java`, `rest-client`) are measured on the calling thread: for `rest-client` (classic Apache HttpClient, I/O on
 * the calling thread) that is the client's work; for `sync-java` only the calling thread's share (java.net.http does
 * its I/O on its own threads). The asynchronous clients do their work on their own threads, in callbacks: counted,
 * not measured.
 */
@RestController
class DownstreamController(
    private val java: JavaHttpDownstream,
    private val apache: ApacheAsyncDownstream,
    private val webClient: WebClientDownstream,
    private val restClient: RestClientDownstream,
    private val work: WorkCounters,
) {

    @GetMapping(SYNC_JAVA_PATH)
    fun syncJava(@RequestParam("delay", required = false) delay: String?): DownstreamAnswer {
        val ms = delayOf(delay)
        return answer(SYNC_JAVA, ms, work.blocking(SYNC_JAVA_PATH) { java.send(SYNC_JAVA, ms) })
    }

    @GetMapping(CF_JAVA_PATH)
    fun cfJava(@RequestParam("delay", required = false) delay: String?): CompletableFuture<DownstreamAnswer> {
        val ms = delayOf(delay)
        return work.counted(CF_JAVA_PATH, java.sendAsync(CF_JAVA, ms)).thenApply { answer(CF_JAVA, ms, it) }
    }

    @GetMapping(CF_APACHE_PATH)
    fun cfApache(@RequestParam("delay", required = false) delay: String?): CompletableFuture<DownstreamAnswer> {
        val ms = delayOf(delay)
        return work.counted(CF_APACHE_PATH, apache.get(CF_APACHE, ms)).thenApply { answer(CF_APACHE, ms, it) }
    }

    @GetMapping(MONO_JAVA_PATH)
    fun monoJava(@RequestParam("delay", required = false) delay: String?): Mono<DownstreamAnswer> {
        val ms = delayOf(delay)
        return work.counted(MONO_JAVA_PATH, Mono.fromFuture(java.sendAsync(MONO_JAVA, ms))).map { answer(MONO_JAVA, ms, it) }
    }

    @GetMapping(WEBCLIENT_PATH)
    fun webclient(@RequestParam("delay", required = false) delay: String?): Mono<DownstreamAnswer> {
        val ms = delayOf(delay)
        return work.counted(WEBCLIENT_PATH, webClient.get(WEBCLIENT, ms)).map { answer(WEBCLIENT, ms, it) }
    }

    @GetMapping(MONO_APACHE_PATH)
    fun monoApache(@RequestParam("delay", required = false) delay: String?): Mono<DownstreamAnswer> {
        val ms = delayOf(delay)
        return work.counted(MONO_APACHE_PATH, Mono.fromCompletionStage(apache.get(MONO_APACHE, ms))).map { answer(MONO_APACHE, ms, it) }
    }

    @GetMapping(REST_CLIENT_PATH)
    fun restClient(@RequestParam("delay", required = false) delay: String?): DownstreamAnswer {
        val ms = delayOf(delay)
        return answer(REST_CLIENT, ms, work.blocking(REST_CLIENT_PATH) { restClient.get(REST_CLIENT, ms) })
    }

    @GetMapping(SUSPEND_WEBCLIENT_PATH)
    suspend fun suspendWebclient(@RequestParam("delay", required = false) delay: String?): DownstreamAnswer {
        val ms = delayOf(delay)
        val body = try {
            webClient.await(SUSPEND_WEBCLIENT, ms)
        } finally {
            work.unmeasured(SUSPEND_WEBCLIENT_PATH)
        }
        return answer(SUSPEND_WEBCLIENT, ms, body)
    }

    /** Any other id: 400 naming `client` and the known ids. */
    @GetMapping(Paths.DOWNSTREAM)
    fun unknown(@PathVariable("client") client: String): DownstreamAnswer =
        throw PathVariableId.CLIENT.unknown(client, DownstreamClient.entries)

    private fun delayOf(raw: String?): Long = Parameter.DELAY.parse(raw)

    private fun answer(client: DownstreamClient, ms: Long, body: String) = DownstreamAnswer(client.id, ms, body)

    /** The paths, which are also the keys of their work in the stats side channel. */
    companion object {
        const val SYNC_JAVA_PATH = "/downstream/sync-java"
        const val CF_JAVA_PATH = "/downstream/cf-java"
        const val CF_APACHE_PATH = "/downstream/cf-apache"
        const val MONO_JAVA_PATH = "/downstream/mono-java"
        const val WEBCLIENT_PATH = "/downstream/webclient"
        const val MONO_APACHE_PATH = "/downstream/mono-apache"
        const val REST_CLIENT_PATH = "/downstream/rest-client"
        const val SUSPEND_WEBCLIENT_PATH = "/downstream/suspend-webclient"
    }
}
