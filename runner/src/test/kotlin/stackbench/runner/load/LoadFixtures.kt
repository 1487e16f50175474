package stackbench.runner.load

import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import stackbench.runner.plan.LoadShape
import stackbench.runner.suite.LoadLength
import java.net.InetSocketAddress
import java.net.URI
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.Executors

/** Recorded driver outputs (see src/test/resources/load/README.md) and a throwaway HTTP server. */
object LoadFixtures {
    /** The folder a recorded run left, used as the phase's output folder: `/load/<tool>/<case>`. */
    fun recorded(tool: String, case: String): Path {
        val url = LoadFixtures::class.java.getResource("/load/$tool/$case/command.txt")
            ?: error("no recorded run /load/$tool/$case")
        return Path.of(url.toURI()).parent
    }

    fun request(
        outputDir: Path,
        shape: LoadShape = LoadShape.Closed(2),
        length: LoadLength = LoadLength.Timed(Duration.ofSeconds(2)),
        method: String = "GET",
        body: String? = null,
        basicAuth: Pair<String, String>? = null,
        timeout: Duration = Duration.ofSeconds(2),
        threads: Int = 1,
        expectedStatus: Int = 200,
        url: URI = URI.create("http://127.0.0.1:18080/noop"),
    ) = DriveRequest(url, method, body, basicAuth, shape, length, timeout, threads, outputDir, expectedStatus)
}

/** A small HTTP server on 127.0.0.1 and a free port: `/noop` answers 200 `ok`; `/todo` POST 201 with Basic auth. */
class TestHttpServer : AutoCloseable {
    private val pool = Executors.newFixedThreadPool(8)
    private val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 512).apply {
        createContext("/noop") { send(it, 200, "ok") }
        createContext("/todo") { ex ->
            val body = ex.requestBody.readAllBytes()
            val authorized = ex.requestHeaders.getFirst("Authorization") == "Basic dXNlcjpwYXNzd29yZA=="
            when {
                !authorized -> send(ex, 401, "unauthorized")
                ex.requestMethod != "POST" || body.isEmpty() -> send(ex, 400, "bad request")
                else -> send(ex, 201, String(body))
            }
        }
        executor = pool
        start()
    }

    val port: Int get() = server.address.port

    fun url(path: String): URI = URI.create("http://127.0.0.1:$port$path")

    override fun close() {
        server.stop(0)
        pool.shutdownNow()
    }

    private fun send(ex: HttpExchange, status: Int, body: String) {
        val bytes = body.toByteArray()
        ex.responseHeaders.set("Content-Type", "text/plain")
        ex.sendResponseHeaders(status, bytes.size.toLong())
        ex.responseBody.use { it.write(bytes) }
    }
}
