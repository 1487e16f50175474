package stackbench.runner.host.relay

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.time.Duration
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

class DelayRelayTest {
    @Test
    fun `the delay line holds each item its delay from when it came in, and keeps the order`() {
        var now = 0L
        val slept = mutableListOf<Long>()
        val line = DelayLine<String>(100, capacity = 8, clock = { now }, sleep = { slept += it; now += it })
        line.put("a") // due at 100
        now = 30
        line.put("b") // due at 130
        now = 50
        assertThat(line.take()).isEqualTo("a")
        assertThat(now).isEqualTo(100)
        now = 200 // already past b's time: no wait
        assertThat(line.take()).isEqualTo("b")
        assertThat(slept).containsExactly(50L)
    }

    /** An echo server on loopback that answers each line it reads, and closes when the client half-closes. */
    private fun echoServer(): ServerSocket {
        val server = ServerSocket(0, 4096, java.net.InetAddress.getLoopbackAddress())
        Thread.ofVirtual().start {
            while (!server.isClosed) {
                val s = runCatching { server.accept() }.getOrNull() ?: break
                Thread.ofVirtual().start { s.use { it.getInputStream().transferTo(it.getOutputStream()) } }
            }
        }
        return server
    }

    @Test
    fun `a round trip through the relay takes twice the one-way delay, bytes intact and in order, and a half-close passes through`() {
        echoServer().use { echo ->
            DelayRelay(InetSocketAddress("127.0.0.1", 0), InetSocketAddress("127.0.0.1", echo.localPort), Duration.ofMillis(25)).use { relay ->
                val port = relay.start()
                Socket("127.0.0.1", port).use { s ->
                    s.tcpNoDelay = true
                    s.soTimeout = 10_000
                    val out = s.getOutputStream()
                    val input = s.getInputStream()
                    // round trip 0 pays the first use of the path (class loading, the relay's threads starting) and is not timed
                    val rtts = (0..5).map {
                        val t0 = System.nanoTime()
                        out.write("ping $it\n".toByteArray()); out.flush()
                        val got = ByteArray(7)
                        var n = 0
                        while (n < 7) n += input.read(got, n, 7 - n)
                        assertThat(String(got)).isEqualTo("ping $it\n")
                        (System.nanoTime() - t0) / 1e6
                    }
                    // nothing is faster than the two one-way delays; a busy machine may delay a round trip, not its median
                    val timed = rtts.drop(1)
                    assertThat(timed).allSatisfy { assertThat(it).isGreaterThanOrEqualTo(50.0) }
                    assertThat(timed.sorted()[timed.size / 2]).`as`("median of $timed").isBetween(50.0, 65.0)
                    val big = ByteArray(1 shl 20) { (it % 251).toByte() }
                    val writer = Thread.ofVirtual().start { out.write(big); s.shutdownOutput() }
                    val back = input.readAllBytes() // ends when the echo server closes after our half-close
                    writer.join()
                    assertThat(back).isEqualTo(big)
                }
                assertThat(relay.connections.get()).isEqualTo(1)
            }
        }
    }

    @Test
    fun `a thousand connections at once each get their answers`() {
        echoServer().use { echo ->
            DelayRelay(InetSocketAddress("127.0.0.1", 0), InetSocketAddress("127.0.0.1", echo.localPort), Duration.ofMillis(5)).use { relay ->
                val port = relay.start()
                val pool = Executors.newVirtualThreadPerTaskExecutor()
                val answers = (1..1000).map { i ->
                    pool.submit<String> {
                        Socket("127.0.0.1", port).use { s ->
                            s.soTimeout = 20_000
                            s.getOutputStream().write("c$i".toByteArray()); s.shutdownOutput()
                            String(s.getInputStream().readAllBytes())
                        }
                    }
                }.map { it.get(30, TimeUnit.SECONDS) }
                pool.shutdown()
                assertThat(answers).isEqualTo((1..1000).map { "c$it" })
            }
        }
    }
}

class LatenessTest {
    @Test
    fun `the relay's lateness line reads back, the last one counting, and a log without one gives null`() {
        val h = org.HdrHistogram.Histogram(3)
        listOf(100L, 200L, 300L, 5_000L).forEach(h::recordValue)
        val log = "stackbench-relay listening on 10.0.0.1:80\n${Lateness.line(h)}\n"
        val read = Lateness.parse(log)!!
        assertThat(read.chunks).isEqualTo(4)
        assertThat(read.p50Us).isEqualTo(h.getValueAtPercentile(50.0))
        assertThat(read.maxUs).isEqualTo(h.maxValue)
        assertThat(Lateness.parse("stackbench-relay listening on 10.0.0.1:80\n")).isNull()
    }

    @Test
    fun `the delay line reports how late each item left`() {
        var now = 0L
        val late = mutableListOf<Long>()
        val line = DelayLine<String>(100, capacity = 8, clock = { now }, sleep = { now += it + 7 }, late = { late += it })
        line.put("a")
        line.take() // slept to 107: 7 late
        now = 500
        line.put("b") // due 600
        now = 650 // the writer came back 50 past due
        line.take()
        assertThat(late).containsExactly(7L, 50L)
    }
}
