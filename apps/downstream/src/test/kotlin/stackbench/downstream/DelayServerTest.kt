package stackbench.downstream

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import reactor.netty.DisposableServer
import stackbench.contract.DownstreamService
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DelayServerTest {
    private lateinit var server: DisposableServer
    private lateinit var stalling: DisposableServer
    private val http = HttpClient.newHttpClient()

    @BeforeAll
    fun start() {
        server = DelayServer(Options(port = 0)).start()
        // a window as long as the period: every request is held 300 ms more
        stalling = DelayServer(Options(port = 0, stall = StallSchedule(1000, 1000, 300))).start()
    }

    @AfterAll
    fun stop() {
        server.disposeNow()
        stalling.disposeNow()
        http.close()
    }

    @Test
    fun `delay answers the contract's body no sooner than asked`() {
        val (response, tookMs) = get(server, "/delay?ms=150")
        assertThat(response.statusCode()).isEqualTo(200)
        assertThat(response.body()).isEqualTo(DownstreamService.body(150))
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json")
        assertThat(tookMs).isGreaterThanOrEqualTo(150)
    }

    @Test
    fun `a bad ms answers 400 naming ms and its range`() {
        for (query in listOf("", "?ms=", "?ms=abc", "?ms=-1", "?ms=60001")) {
            val (response, _) = get(server, "/delay$query")
            assertThat(response.statusCode()).`as`(query).isEqualTo(400)
            assertThat(response.body()).`as`(query).contains("\"parameter\":\"ms\"").contains("\"allowed\":\"0..60000 ms\"")
        }
    }

    @Test
    fun `health answers ok and other paths 404`() {
        assertThat(get(server, "/health").first.body()).isEqualTo("ok")
        assertThat(get(server, "/nothing").first.statusCode()).isEqualTo(404)
    }

    @Test
    fun `in stall mode a request arriving in the window is held longer`() {
        val (response, tookMs) = get(stalling, "/delay?ms=0")
        assertThat(response.body()).isEqualTo(DownstreamService.body(0))
        assertThat(tookMs).isGreaterThanOrEqualTo(300)
    }

    private fun get(server: DisposableServer, path: String): Pair<HttpResponse<String>, Long> {
        val started = System.nanoTime()
        val response = http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:${server.port()}$path")).build(),
            HttpResponse.BodyHandlers.ofString(),
        )
        return response to (System.nanoTime() - started) / 1_000_000
    }
}
