package stackbench.runner.host.relay

import java.io.IOException
import java.io.InputStream
import java.io.OutputStream
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger
import org.HdrHistogram.ConcurrentHistogram
import kotlin.system.exitProcess

/**
 * A TCP relay that adds latency, for a kernel without `sch_netem`: it listens on [listen] and, for each client
 * connection, opens one to [target] and copies both directions, each chunk held [oneWay] (half the emulated
 * round trip) in a [DelayLine], order kept. It terminates TCP on both sides: it emulates a link's latency, not
 * its loss, reordering or queueing (docs/hosts.md). Virtual threads, two per direction of a connection.
 */
class DelayRelay(private val listen: InetSocketAddress, private val target: InetSocketAddress, private val oneWay: Duration) : AutoCloseable {
    private val server = ServerSocket()
    val connections = AtomicInteger()

    /** How late each chunk left the relay past its due time, in µs: the emulated link's error (docs/hosts.md). */
    val lateness = ConcurrentHistogram(3)

    /** Binds and starts accepting; returns the bound port. */
    fun start(): Int {
        server.reuseAddress = true
        server.bind(listen, BACKLOG)
        Thread.ofVirtual().name("relay-accept").start {
            while (!server.isClosed) {
                val client = try { server.accept() } catch (_: IOException) { break }
                connections.incrementAndGet()
                Thread.ofVirtual().start { relay(client) }
            }
        }
        return server.localPort
    }

    private fun relay(client: Socket) {
        val upstream = Socket()
        try {
            client.tcpNoDelay = true
            upstream.tcpNoDelay = true
            upstream.connect(target, CONNECT_TIMEOUT_MS)
        } catch (_: IOException) {
            // the service did not take the connection: the client sees a reset, as it would without the relay
            runCatching { client.setSoLinger(true, 0) }
            client.close(); upstream.close()
            return
        }
        val done = AtomicInteger(2)
        val closeBoth: () -> Unit = { runCatching { client.close() }; runCatching { upstream.close() } }
        val finished: () -> Unit = { if (done.decrementAndGet() == 0) closeBoth() }
        pipe(client.getInputStream(), upstream.getOutputStream(), { runCatching { upstream.shutdownOutput() }; Unit }, finished, closeBoth)
        pipe(upstream.getInputStream(), client.getOutputStream(), { runCatching { client.shutdownOutput() }; Unit }, finished, closeBoth)
    }

    /**
     * Copies [from] to [to] through a delay line: a reader puts each chunk in as it arrives, a writer sends it
     * when due. The end of the stream is passed on as a half-close once due; an error ends both directions.
     */
    private fun pipe(from: InputStream, to: OutputStream, halfClose: () -> Unit, finished: () -> Unit, fail: () -> Unit) {
        val line = DelayLine<ByteArray>(oneWay.toNanos(), CHUNKS, late = { lateness.recordValue(it / 1_000) })
        Thread.ofVirtual().start {
            val buffer = ByteArray(BUFFER)
            try {
                while (true) {
                    val n = from.read(buffer)
                    if (n < 0) break
                    line.put(buffer.copyOf(n))
                }
                line.put(EOF)
            } catch (_: IOException) {
                line.put(EOF)
                fail()
            }
        }
        Thread.ofVirtual().start {
            try {
                while (true) {
                    val chunk = line.take()
                    if (chunk === EOF) break
                    to.write(chunk)
                    to.flush()
                }
                halfClose()
                finished()
            } catch (_: IOException) {
                fail()
            }
        }
    }

    override fun close() = server.close()

    companion object {
        private val EOF = ByteArray(0)
        private const val BUFFER = 16 * 1024
        private const val CHUNKS = 64
        private const val BACKLOG = 4096
        private const val CONNECT_TIMEOUT_MS = 5_000

        /** The command-line arguments for a relay from [listen] to [target] holding each chunk [oneWay]. */
        fun args(listen: String, listenPort: Int, target: String, targetPort: Int, oneWay: Duration): List<String> =
            listOf("--listen", "$listen:$listenPort", "--to", "$target:$targetPort", "--one-way-us", "${oneWay.toNanos() / 1_000}")

        /** The line it prints once it listens, which the lab waits for. */
        const val READY = "stackbench-relay listening"
    }
}

/** `DelayRelay --listen ADDR:PORT --to ADDR:PORT --one-way-us N`: runs until killed. */
fun main(args: Array<String>) {
    val opts = args.toList().chunked(2).associate { it[0] to it.getOrElse(1) { "" } }
    fun address(key: String): InetSocketAddress {
        val v = opts[key] ?: run { System.err.println("missing $key"); exitProcess(2) }
        return InetSocketAddress(v.substringBeforeLast(':'), v.substringAfterLast(':').toInt())
    }
    val oneWay = Duration.ofNanos((opts["--one-way-us"]?.toLong() ?: 0) * 1_000)
    val relay = DelayRelay(address("--listen"), address("--to"), oneWay)
    val port = relay.start()
    Runtime.getRuntime().addShutdownHook(Thread { println(Lateness.line(relay.lateness)); System.out.flush() })
    println("${DelayRelay.READY} on ${opts["--listen"]!!.substringBeforeLast(':')}:$port to ${opts["--to"]}, ${oneWay.toNanos() / 1_000} us each way")
    System.out.flush()
    Thread.currentThread().join()
}
