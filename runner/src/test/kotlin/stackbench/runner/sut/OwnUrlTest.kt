package stackbench.runner.sut

import com.sun.net.httpserver.HttpServer
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.isolation.Confinement
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.URI
import java.nio.file.Path

/** A `url:` app through the seam: no process, nothing it offers, and a URL that does not answer named before anything starts. Loopback only. */
class OwnUrlTest {
    private fun app(url: String, ready: String = "{path: /ready, timeout: 1s}") = SuiteParser(MachineFacts(2)).parse(
        "name: u\napps: [{name: remote, url: '$url', ready: $ready}]\nendpoints: [{kind: http, name: x, path: /x}]", "u.yaml").apps.single()

    /** A loopback port nothing listens on (bound, then closed). */
    private fun closedPort(): Int = ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()).use { it.localPort }

    private fun server(status: Int): HttpServer = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0).apply {
        createContext("/") { it.sendResponseHeaders(status, -1); it.close() }
        start()
    }

    @Test
    fun `a url app offers nothing beyond answering, has no command, and answers where its url says`() {
        val sut = SystemUnderTest.of(app("http://127.0.0.1:9/api"), Path.of("."))
        assertThat(sut).isInstanceOf(OwnUrl::class.java)
        assertThat(sut.kind).isEqualTo("url")
        assertThat(sut.capabilities.named.filter { it.second }).isEmpty()
        assertThat(sut.capabilities.named.map { it.first }).startsWith("process")
        assertThat(sut.runningAt).isEqualTo(URI("http://127.0.0.1:9/api"))
        val ctx = LaunchContext(stackbench.runner.plan.Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: u\napps: [{url: 'http://127.0.0.1:9'}]\nendpoints: [{kind: http, name: x, path: /x}]", "u.yaml")).cells.first(),
            Path.of("java"), Path.of("."), 2, "127.0.0.1", AppPorts(0, 0), null, Path.of("gc.log"))
        assertThat(sut.command(ctx)).isEmpty()
        // the lab's started apps all have a process
        assertThat(listOf(BuiltinApp(stackbench.runner.catalog.Stack.TOMCAT, Path.of("."), false).capabilities.process)).containsOnly(true)
    }

    @Test
    fun `a request goes to the base path followed by its own path`() {
        val sut = OwnUrl(stackbench.runner.suite.AppSource.Url("http://127.0.0.1:9/api/v2"), app("http://127.0.0.1:9/api/v2"))
        val running = RunningApp(null, Confinement.none(), sut.runningAt, null, emptyList(), Path.of("."), "k", sut = sut)
        assertThat(running.at("/orders/1?full=true")).isEqualTo(URI("http://127.0.0.1:9/api/v2/orders/1?full=true"))
        assertThat(running.pid).isNull()
        assertThat(running.isAlive()).`as`("nothing the lab can watch").isTrue()
        assertThat(running.logTail()).isEmpty()
        running.stop() // nothing to stop, nothing thrown
    }

    @Test
    fun `a url that refuses connections is named with its key and what the attempt met, within its readiness timeout`() {
        val port = closedPort()
        val start = System.nanoTime()
        val problem = SystemUnderTest.of(app("http://127.0.0.1:$port"), Path.of(".")).problem()
        val seconds = (System.nanoTime() - start) / 1e9
        assertThat(problem).startsWith("apps.remote.url: http://127.0.0.1:$port did not answer as ready within 1 s")
        assertThat(problem).endsWith("GET /ready: connection refused")
        assertThat(seconds).`as`("bounded by the ready timeout").isLessThan(4.0)
    }

    @Test
    fun `a url that answers but not as ready is named with what it answered, and one that is ready passes`() {
        val unready = server(503)
        val ready = server(200)
        try {
            assertThat(SystemUnderTest.of(app("http://127.0.0.1:${unready.address.port}"), Path.of(".")).problem())
                .startsWith("apps.remote.url: http://127.0.0.1:${unready.address.port} did not answer as ready within 1 s")
                .endsWith("GET /ready answered 503, waiting for GET /ready answering 200")
            assertThat(SystemUnderTest.of(app("http://127.0.0.1:${ready.address.port}"), Path.of(".")).problem()).isNull()
        } finally {
            unready.stop(0)
            ready.stop(0)
        }
    }

    @Test
    fun `a connection attempt's failure reads as words`() {
        assertThat(OwnUrl.failure(java.net.ConnectException())).isEqualTo("connection refused")
        assertThat(OwnUrl.failure(java.io.IOException("x", java.net.http.HttpConnectTimeoutException("HTTP connect timed out")))).startsWith("the connection timed out")
        assertThat(OwnUrl.failure(java.net.http.HttpTimeoutException("request timed out"))).contains("timeout")
        assertThat(OwnUrl.failure(java.net.ConnectException().apply { initCause(java.nio.channels.UnresolvedAddressException()) })).isEqualTo("the host name does not resolve")
    }
}
