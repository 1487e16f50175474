package stackbench.runner.browser

import stackbench.runner.host.ProcessStop
import stackbench.runner.results.Json
import tools.jackson.databind.JsonNode
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.net.http.WebSocket
import java.nio.file.Files
import java.nio.file.Path
import java.util.Base64
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/**
 * Headless Chromium driven over the DevTools protocol (the JDK's own WebSocket client, nothing else): opens a
 * report, records console errors, exceptions, dialogs and every request, and takes full-page screenshots.
 * For the report's browser test and `./stackbench report --screenshot`.
 */
class Browser(chromium: Path, private val timeoutMs: Long = 30_000) : AutoCloseable {
    private val profile: Path = Files.createTempDirectory("stackbench-chromium-")
    private val process: Process = ProcessBuilder(
        listOf(chromium.toString()) + FLAGS + listOf("--remote-debugging-port=0", "--user-data-dir=$profile", "about:blank"),
    ).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
    private val stderr = CopyOnWriteArrayList<String>()
    private val http = HttpClient.newHttpClient()
    private val ids = AtomicInteger()
    private val pending = ConcurrentHashMap<Int, CompletableFuture<JsonNode>>()
    private val socket: WebSocket

    /** What the page did: console errors and exceptions, JavaScript dialogs, and the URL of every request. */
    val errors = CopyOnWriteArrayList<String>()
    val dialogs = CopyOnWriteArrayList<String>()
    val requests = CopyOnWriteArrayList<String>()

    init {
        val endpoint = CompletableFuture<String>()
        Thread({
            // the stream closes under this thread when the browser is stopped: the end of its output, not an error
            runCatching {
                process.errorStream.bufferedReader().forEachLine { line ->
                    if (stderr.size < 200) stderr += line
                    Regex("DevTools listening on (ws://\\S+)").find(line)?.let { endpoint.complete(it.groupValues[1]) }
                }
            }
            endpoint.completeExceptionally(IllegalStateException("chromium exited: ${stderr.takeLast(10).joinToString(" | ")}"))
        }, "chromium-stderr").apply { isDaemon = true }.start()
        try {
            val port = URI(endpoint.get(timeoutMs, TimeUnit.MILLISECONDS)).port
            val list = http.send(HttpRequest.newBuilder(URI("http://127.0.0.1:$port/json/list")).build(), HttpResponse.BodyHandlers.ofString()).body()
            val page = Json.mapper.readTree(list).first { it.path("type").asString("") == "page" }
            socket = http.newWebSocketBuilder().buildAsync(URI(page.path("webSocketDebuggerUrl").asString()), Listener()).get(timeoutMs, TimeUnit.MILLISECONDS)
        } catch (e: Exception) {
            close()
            throw IllegalStateException("could not start headless Chromium ($chromium): ${e.message}", e)
        }
        for (domain in listOf("Runtime", "Log", "Network", "Page")) send("$domain.enable")
    }

    /** The result of a DevTools command. */
    fun send(method: String, params: Map<String, Any?> = emptyMap()): JsonNode {
        val id = ids.incrementAndGet()
        val future = CompletableFuture<JsonNode>()
        pending[id] = future
        socket.sendText(Json.mapper.writeValueAsString(mapOf("id" to id, "method" to method, "params" to params)), true).join()
        val answer = future.get(timeoutMs, TimeUnit.MILLISECONDS)
        if (answer.has("error")) throw IllegalStateException("$method: ${answer.path("error")}")
        return answer.path("result")
    }

    /** Evaluates [js] in the page and returns its value. */
    fun evaluate(js: String): JsonNode {
        val r = send("Runtime.evaluate", mapOf("expression" to js, "returnByValue" to true, "awaitPromise" to true))
        if (r.has("exceptionDetails")) throw IllegalStateException("evaluating failed: ${r.path("exceptionDetails")}")
        return r.path("result").path("value")
    }

    /**
     * Opens [html] at [width] CSS pixels and waits until [ready] (a JavaScript expression) gives a string: by default
     * until report.js has drawn every chart; another page (a flame graph) names its own sign of being drawn.
     */
    fun open(html: Path, width: Int = 1366, height: Int = 900, ready: String = REPORT_DRAWN): Opened {
        send("Emulation.setDeviceMetricsOverride", mapOf("width" to width, "height" to height, "deviceScaleFactor" to 1, "mobile" to false))
        val url = html.toAbsolutePath().toUri().toString()
        val started = System.nanoTime()
        send("Page.navigate", mapOf("url" to url))
        val deadline = System.currentTimeMillis() + timeoutMs
        while (true) {
            val drawn = runCatching { evaluate(ready) }.getOrNull()
            if (drawn != null && drawn.isString) break
            check(System.currentTimeMillis() < deadline) { "the page did not finish drawing in $timeoutMs ms; errors: $errors" }
            Thread.sleep(20)
        }
        val wallMs = (System.nanoTime() - started) / 1e6
        val stats = if (ready != REPORT_DRAWN) null
            else evaluate("({charts: window.stackbench.charts, renderMs: window.stackbench.renderMs, readyAt: window.stackbench.readyAt})")
        return Opened(url, stats?.path("charts")?.asInt() ?: 0, stats?.path("renderMs")?.asDouble() ?: wallMs, stats?.path("readyAt")?.asDouble() ?: wallMs, wallMs, width)
    }

    inner class Opened(val url: String, val charts: Int, val renderMs: Double, val readyAtMs: Double, val wallMs: Double, private val width: Int) {
        /** Requests other than the report itself (data: URLs are not requests on the network). */
        val otherRequests: List<String> get() = requests.filter { it != url && !it.startsWith("data:") }

        /** A full-page PNG at [path]. */
        /** A screenshot of the whole page, or of its top [maxHeight] CSS pixels. */
        fun screenshot(path: Path, maxHeight: Int? = null): Opened {
            val full = evaluate("Math.ceil(document.documentElement.scrollHeight)").asInt()
            val height = maxHeight?.coerceAtMost(full) ?: full
            send("Emulation.setDeviceMetricsOverride", mapOf("width" to width, "height" to height, "deviceScaleFactor" to 1, "mobile" to false))
            evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            val png = send("Page.captureScreenshot", mapOf("format" to "png", "captureBeyondViewport" to false)).path("data").asString()
            path.toAbsolutePath().parent?.let { Files.createDirectories(it) }
            Files.write(path, Base64.getDecoder().decode(png))
            return this
        }
    }

    private inner class Listener : WebSocket.Listener {
        private val buffer = StringBuilder()
        override fun onText(ws: WebSocket, data: CharSequence, last: Boolean): java.util.concurrent.CompletionStage<*>? {
            buffer.append(data)
            if (last) {
                val message = Json.mapper.readTree(buffer.toString())
                buffer.setLength(0)
                handle(message)
            }
            ws.request(1)
            return null
        }
    }

    private fun handle(m: JsonNode) {
        if (m.has("id")) { pending.remove(m.path("id").asInt())?.complete(m); return }
        val p = m.path("params")
        when (m.path("method").asString("")) {
            "Runtime.consoleAPICalled" -> if (p.path("type").asString("") in setOf("error", "assert")) errors += "console.${p.path("type").asString()}: ${p.path("args")}"
            "Runtime.exceptionThrown" -> errors += "exception: ${p.path("exceptionDetails").path("exception").path("description").asString(p.path("exceptionDetails").toString())}"
            "Log.entryAdded" -> if (p.path("entry").path("level").asString("") == "error") errors += "log: ${p.path("entry").path("text").asString()}"
            "Network.requestWillBeSent" -> requests += p.path("request").path("url").asString("")
            "Page.javascriptDialogOpening" -> {
                dialogs += "${p.path("type").asString()}: ${p.path("message").asString()}"
                CompletableFuture.runAsync { runCatching { send("Page.handleJavaScriptDialog", mapOf("accept" to false)) } }
            }
        }
    }

    override fun close() {
        @Suppress("SENSELESS_COMPARISON") // null when the constructor failed before connecting
        if (socket != null) runCatching { socket.abort() }
        ProcessStop.stop(process, java.time.Duration.ofSeconds(5))
        runCatching { profile.toFile().deleteRecursively() }
    }

    companion object {
        /** A report drawn: the document loaded and report.js done with every chart. */
        const val REPORT_DRAWN = "document.readyState === 'complete' && document.documentElement.getAttribute('data-charts-drawn')"

        val FLAGS = listOf("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--remote-allow-origins=*")

        /** Chromium on the PATH (Debian's package: chromium), or null. */
        fun find(): Path? = stackbench.runner.catalog.SearchPath.find("chromium", "chromium-browser", "google-chrome")
    }
}
