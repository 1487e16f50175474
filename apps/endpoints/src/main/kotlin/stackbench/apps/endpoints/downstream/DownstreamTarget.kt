package stackbench.apps.endpoints.downstream

import org.springframework.stereotype.Component
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.contract.DownstreamClient
import stackbench.contract.DownstreamFailure
import stackbench.contract.DownstreamService
import stackbench.contract.Parameter
import java.net.URI
import java.time.Duration

/** Where the downstream service is, and the deadline of one call to it. */
@Component
class DownstreamTarget(properties: StackbenchProperties) {
    val baseUrl: String = properties.downstream.baseUrl.trimEnd('/')
    val maxConnections: Int = properties.downstream.maxConnections

    fun uri(delayMs: Long): URI = URI.create("$baseUrl${DownstreamService.PATH}?ms=$delayMs")

    /** Every call gives up this long after it starts: the delay asked plus [MARGIN]. */
    fun deadline(delayMs: Long): Duration = Duration.ofMillis(delayMs).plus(MARGIN)

    companion object {
        val MARGIN: Duration = Duration.ofSeconds(30)
        val CONNECT_TIMEOUT: Duration = Duration.ofSeconds(5)

        /** The deadline of the longest call allowed, for clients whose timeout is set once, not per call. */
        val LONGEST: Duration = Duration.ofMillis(Parameter.DELAY.range.last).plus(MARGIN)
    }
}

/** A downstream call that failed: answered as 502 with a [DownstreamFailure] body. */
class DownstreamException(val client: DownstreamClient, val uri: URI, reason: String, cause: Throwable? = null) :
    RuntimeException("${client.id}: GET $uri failed: $reason", cause) {

    fun body() = DownstreamFailure(DownstreamFailure.ERROR, client.id, uri.toString(), message!!)

    companion object {
        /** Wraps what a client threw, keeping a [DownstreamException] as it is. */
        fun of(client: DownstreamClient, uri: URI, error: Throwable): DownstreamException {
            val cause = unwrap(error)
            return cause as? DownstreamException
                ?: DownstreamException(client, uri, describe(cause), cause)
        }

        fun status(client: DownstreamClient, uri: URI, status: Int) =
            DownstreamException(client, uri, "answered status $status")

        /** The exception and its message, or its cause's when it has none (java.net.http's ConnectException). */
        private fun describe(e: Throwable): String {
            val cause = e.cause
            return if (e.message == null && cause != null && cause !== e) "${e.javaClass.name} (${describe(cause)})" else e.toString()
        }

        private fun unwrap(error: Throwable): Throwable {
            var e = error
            while ((e is java.util.concurrent.CompletionException || e is java.util.concurrent.ExecutionException) && e.cause != null) {
                e = e.cause!!
            }
            return e
        }
    }
}
