package stackbench.runner.cli

import stackbench.runner.scaffold.Answer
import stackbench.runner.scaffold.Answers
import stackbench.runner.scaffold.ScaffoldProblem
import stackbench.runner.sut.OwnUrl
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicLong

/**
 * `init`'s trial starts: the user's service started on loopback with the port init gives it, waited for until it
 * listens, asked its health paths and its endpoint, driven for a few seconds in the pilot, and stopped (with every
 * process it started). A service that never listens is an error with the last lines of its log.
 */
class InitTrial(private val startTimeout: Duration, private val hint: String?) {
    /** How to start the service on [port]: its command line and environment. */
    fun interface Launch { fun on(port: Int): Pair<List<String>, Map<String, String>> }

    /** A started service, listening at [base]; closing it stops it and its children. */
    class Started(private val process: Process?, val base: String, private val log: Path?) : AutoCloseable {
        override fun close() {
            val p = process ?: return
            val children = p.descendants().toList()
            p.destroy()
            if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(5, TimeUnit.SECONDS)
            children.forEach { it.destroyForcibly() }
            log?.let { runCatching { Files.deleteIfExists(it) } }
        }
    }

    fun start(what: String, launch: Launch, dir: Path): Started {
        val port = ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()).use { it.localPort }
        val (command, env) = launch.on(port)
        val log = Files.createTempFile("stackbench-init-", ".log")
        val process = try {
            ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile())
                .also { it.environment().putAll(env) }.start()
        } catch (e: java.io.IOException) {
            throw ScaffoldProblem("$what could not be started (${command.first()}): ${e.message}")
        }
        val started = Started(process, "http://127.0.0.1:$port", log)
        val deadline = System.nanoTime() + startTimeout.toNanos()
        while (true) {
            if (!process.isAlive) {
                val tail = tail(log)
                started.close()
                throw ScaffoldProblem("$what exited (code ${process.exitValue()}) before it listened on port $port" + hintLine() + tail)
            }
            if (listens(port)) return started
            if (System.nanoTime() > deadline) {
                val tail = tail(log)
                started.close()
                throw ScaffoldProblem("$what did not listen on port $port within ${startTimeout.seconds} s (init gave it the port as the command line shows: " +
                    "${command.joinToString(" ")}${if (env.isEmpty()) "" else "; environment " + env.entries.joinToString { "${it.key}=${it.value}" }})" + hintLine() + tail)
            }
            Thread.sleep(200)
        }
    }

    private fun hintLine() = hint?.let { "\n  $it" }.orEmpty()

    private fun tail(log: Path): String {
        val lines = runCatching { Files.readAllLines(log) }.getOrDefault(emptyList())
        return if (lines.isEmpty()) "\n  (its log is empty)" else "\n  the last lines of its log:\n" + lines.takeLast(15).joinToString("\n") { "    $it" }
    }

    private fun listens(port: Int): Boolean = runCatching { Socket().use { it.connect(InetSocketAddress("127.0.0.1", port), 300) } }.isSuccess

    private val client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build()

    /** GET [path] of [base]: the answer, or null when it did not answer. */
    fun get(base: String, path: String): Answer? = runCatching {
        val r = client.send(HttpRequest.newBuilder(URI(base + path)).timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString())
        Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(null), r.body())
    }.getOrNull()

    /** Each health path's status, asked again for a few seconds while none answers 2xx (a health that turns UP after the port opens). */
    fun health(base: String): Map<String, Int?> {
        var answered: Map<String, Int?> = emptyMap()
        repeat(8) { attempt ->
            answered = Answers.HEALTH_PATHS.associateWith { get(base, it)?.status }
            if (answered.values.any { it != null && it in 200..299 }) return answered
            if (attempt < 7) Thread.sleep(1000)
        }
        return answered
    }

    /**
     * A closed-model load of [connections] loops on GET [path] for [warmup] (not counted), then [seconds] counted:
     * the answers with [status] per second.
     */
    fun load(base: String, path: String, status: Int, connections: Int, warmup: Duration, seconds: Int): Double {
        val counting = AtomicBoolean(false)
        val stop = AtomicBoolean(false)
        val count = AtomicLong()
        val uri = URI(base + path)
        val threads = (1..connections).map {
            Thread.ofPlatform().daemon().start {
                val own = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build()
                val request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build()
                while (!stop.get()) {
                    val ok = runCatching { own.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == status }.getOrDefault(false)
                    if (ok && counting.get()) count.incrementAndGet()
                }
            }
        }
        Thread.sleep(warmup.toMillis())
        counting.set(true)
        val started = System.nanoTime()
        Thread.sleep(seconds * 1000L)
        counting.set(false)
        val elapsed = (System.nanoTime() - started) / 1e9
        stop.set(true)
        threads.forEach { it.join(12_000) }
        return count.get() / elapsed
    }

    companion object {
        /** A URL that does not answer at all is exit 2, naming it and what the attempt met. */
        fun reachable(url: String, trial: InitTrial) {
            val failure = runCatching { trial.client.send(HttpRequest.newBuilder(URI(url)).timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding()) }
                .exceptionOrNull() ?: return
            throw ScaffoldProblem("$url does not answer: ${OwnUrl.failure(failure)}")
        }
    }
}
