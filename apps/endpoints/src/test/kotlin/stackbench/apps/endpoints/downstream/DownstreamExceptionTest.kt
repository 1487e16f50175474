package stackbench.apps.endpoints.downstream

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.contract.DownstreamClient
import stackbench.contract.DownstreamFailure
import java.net.ConnectException
import java.net.URI
import java.time.Duration
import java.util.concurrent.CompletionException

class DownstreamExceptionTest {
    private val uri = URI.create("http://127.0.0.1:1/delay?ms=5")

    @Test
    fun `a failure is unwrapped and named by client`() {
        val e = DownstreamException.of(DownstreamClient.CF_JAVA, uri, CompletionException(ConnectException("Connection refused")))
        assertThat(e.body()).isEqualTo(
            DownstreamFailure(DownstreamFailure.ERROR, "cf-java", uri.toString(),
                "cf-java: GET $uri failed: java.net.ConnectException: Connection refused"),
        )
    }

    @Test
    fun `a failure already named stays as it is`() {
        val named = DownstreamException.status(DownstreamClient.WEBCLIENT, uri, 503)
        assertThat(DownstreamException.of(DownstreamClient.MONO_JAVA, uri, CompletionException(named))).isSameAs(named)
        assertThat(named.body().message).endsWith("answered status 503")
    }

    @Test
    fun `a call gives up 30 s after the delay it asked`() {
        val target = DownstreamTarget(StackbenchProperties(downstream = StackbenchProperties.Downstream("http://h:1/", 5)))
        assertThat(target.uri(250)).isEqualTo(URI.create("http://h:1/delay?ms=250"))
        assertThat(target.deadline(250)).isEqualTo(Duration.ofMillis(30_250))
        assertThat(DownstreamTarget.LONGEST).isEqualTo(Duration.ofSeconds(90))
    }
}
