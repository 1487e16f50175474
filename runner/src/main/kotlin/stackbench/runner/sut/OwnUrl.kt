package stackbench.runner.sut

import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.AppSource
import stackbench.runner.suite.Readiness
import java.net.URI
import java.time.Duration

/**
 * A service already running elsewhere (`url:`): the lab does not start it, so it has no process to place, confine,
 * sample or stop, and offers nothing beyond answering. The lab verifies, warms up and drives it as any app, and records
 * its CPU, memory and JVM figures as unknown; every cell of it is flagged `not-isolated`. Its latency includes whatever
 * lies between the load generator and it.
 */
class OwnUrl(private val source: AppSource.Url, private val app: AppConfig, private val attempt: Duration = ATTEMPT) : SystemUnderTest {
    override val kind get() = source.id
    override val capabilities = Capabilities(process = false, statsChannel = false, info = false, startLine = false, primeEndpoint = false, jvm = false)
    override val readiness = app.ready ?: Readiness.ANY_ANSWER
    override val runningAt: URI = URI(stackbench.runner.suite.Secrets.uriSafe(source.url))

    /**
     * Asks the URL's readiness path until it answers as [readiness] wants, at most its timeout: null when it did, else
     * what the last attempt met (connection refused, a timeout, an unknown host, the status it answered), naming the key.
     */
    override fun problem(): String? {
        val url = URI(stackbench.runner.suite.Secrets.uriSafe(source.url + readiness.path))
        val start = System.nanoTime()
        val deadline = start + readiness.timeout.toNanos()
        val http = Http(attempt)
        var last: String
        // each attempt has its whole time (so a slow answer is not mistaken for none): the wait ends at most one attempt past the timeout
        while (true) {
            last = try {
                val status = http.call(url, timeout = attempt).status
                if (readiness.isReady(status)) return null
                "GET ${readiness.path} answered $status, waiting for ${readiness.describe}"
            } catch (e: InterruptedException) {
                throw e
            } catch (e: Exception) {
                "GET ${readiness.path}: ${failure(e)}"
            }
            if (System.nanoTime() + PAUSE.toNanos() >= deadline) break
            Thread.sleep(PAUSE.toMillis())
        }
        val waited = Duration.ofNanos(System.nanoTime() - start).toMillis() / 1000.0
        return "apps.${app.name}.url: ${source.url} did not answer as ready within ${"%.0f".format(readiness.timeout.toMillis() / 1000.0)} s " +
            "(tried for ${"%.1f".format(waited)} s): $last"
    }

    /** No command: the lab does not start it. */
    override fun command(ctx: LaunchContext): List<String> = emptyList()

    companion object {
        /** The longest one attempt waits for a connection and an answer. */
        val ATTEMPT: Duration = Duration.ofSeconds(2)
        private val PAUSE = Duration.ofMillis(250)

        /** What a failed connection attempt met, in words. */
        fun failure(e: Throwable): String {
            val chain = generateSequence(e) { it.cause }.take(8).toList()
            return when {
                chain.any { it is java.net.http.HttpConnectTimeoutException } -> "the connection timed out (no answer to connect within ${ATTEMPT.seconds} s)"
                chain.any { it is java.net.http.HttpTimeoutException } -> "connected, but no answer within ${ATTEMPT.seconds} s (timeout)"
                chain.any { it is java.nio.channels.UnresolvedAddressException || it is java.net.UnknownHostException } -> "the host name does not resolve"
                chain.any { it is java.net.ConnectException } ->
                    chain.firstNotNullOfOrNull { (it as? java.net.ConnectException)?.message?.takeIf { m -> m.isNotBlank() } }?.lowercase() ?: "connection refused"
                chain.any { it is javax.net.ssl.SSLException } -> "TLS failed: ${chain.first { it is javax.net.ssl.SSLException }.message}"
                else -> "${e::class.simpleName}: ${e.message}"
            }
        }
    }
}
