package stackbench.downstream

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import reactor.netty.DisposableServer
import stackbench.contract.DownstreamService
import java.io.BufferedInputStream
import java.io.InputStream
import java.net.Socket
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

    @Test
    fun `a keep-alive connection keeps answering after a request that arrived while a delay was still running`() {
        // Pipelined: /health arrives while /delay waits, so the server buffers it and answers it when the delay ends.
        // Reactor Netty 1.3.7 then stopped reading the connection, and the third request was never answered.
        Socket("127.0.0.1", server.port()).use { socket ->
            socket.soTimeout = 5_000
            val input = BufferedInputStream(socket.getInputStream())
            fun send(vararg paths: String) = socket.getOutputStream().run {
                write(paths.joinToString("") { "GET $it HTTP/1.1\r\nHost: test\r\n\r\n" }.toByteArray(Charsets.US_ASCII))
                flush()
            }
            repeat(3) { round ->
                send("/delay?ms=20", "/health")
                assertThat(readAnswer(input)).`as`("round $round /delay").isEqualTo(200 to DownstreamService.body(20))
                assertThat(readAnswer(input)).`as`("round $round /health").isEqualTo(200 to "ok")
                send("/nothing")
                assertThat(readAnswer(input).first).`as`("round $round /nothing, after the pipelined pair").isEqualTo(404)
                send("/delay?ms=60001")
                assertThat(readAnswer(input).first).`as`("round $round a bad ms").isEqualTo(400)
            }
        }
    }

    /** One HTTP/1.1 answer with a Content-Length: its status and body. Throws SocketTimeoutException if none comes. */
    private fun readAnswer(input: InputStream): Pair<Int, String> {
        val head = StringBuilder()
        while (!head.endsWith("\r\n\r\n")) {
            val c = input.read()
            check(c >= 0) { "the server closed the connection; read so far: $head" }
            head.append(c.toChar())
        }
        val lines = head.lines()
        val length = lines.firstNotNullOfOrNull { line ->
            line.takeIf { it.startsWith("content-length:", ignoreCase = true) }?.substringAfter(':')?.trim()?.toInt()
        } ?: error("no content-length in $head")
        return lines.first().split(' ')[1].toInt() to String(input.readNBytes(length), Charsets.UTF_8)
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
