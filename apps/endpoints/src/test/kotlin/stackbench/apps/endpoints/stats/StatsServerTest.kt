package stackbench.apps.endpoints.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.apps.endpoints.config.StackbenchProperties
import java.net.ServerSocket
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors

class StatsServerTest {

    @Test
    fun `port 0 means off`() {
        val server = StatsServer(StackbenchProperties(), StatsReader(CompletedExchanges(), WorkCounters(false, FakeClock())))
        server.start()
        assertThat(server.isRunning).isFalse()
    }

    @Test
    fun `it answers on its own thread while every other thread is busy`() {
        val port = ServerSocket(0).use { it.localPort }
        val completed = CompletedExchanges().apply { repeat(7) { increment() } }
        val work = WorkCounters(true, FakeClock(step = 1_000))
        work.cpu("/noop") { "ok" }
        val server = StatsServer(StackbenchProperties(stats = StackbenchProperties.Stats(port)), StatsReader(completed, work))
        val blocked = CountDownLatch(1)
        val busy = Executors.newFixedThreadPool(4)
        server.start()
        try {
            repeat(4) { busy.execute { blocked.await() } }
            HttpClient.newHttpClient().use { http ->
                val get = { path: String ->
                    http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:$port$path")).build(), HttpResponse.BodyHandlers.ofString())
                }
                val answer = get("/stats")
                assertThat(answer.statusCode()).isEqualTo(200)
                assertThat(answer.body()).startsWith("{\"completed\":7,\"epochMillis\":")
                assertThat(answer.body()).contains("\"processCpuNanos\":", "\"compilationMillis\":", "\"gcCount\":", "\"loadedClasses\":")
                    .endsWith(",\"work\":{\"/noop\":{\"count\":1,\"cpuNanos\":1000,\"unmeasured\":0}}}")
                assertThat(get("/stats/more").statusCode()).isEqualTo(404)
            }
        } finally {
            blocked.countDown()
            busy.shutdown()
            server.stop()
        }
        assertThat(server.isRunning).isFalse()
    }
}
