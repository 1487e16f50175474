package stackbench.runner.load

import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.plan.LoadShape
import stackbench.runner.results.LatencyStats
import stackbench.runner.results.LoadResult
import stackbench.runner.results.PercentilePoint
import stackbench.runner.suite.LoadLength
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.nio.file.Files
import java.nio.file.Path
import java.sql.DriverManager
import kotlin.math.ceil

/**
 * oha 1.16.0. Closed model: `-c N` for a duration (`-z`) or a request count (`-n`). Open model:
 * `-q RATE --latency-correction -c N`, latency counted from each request's intended send time.
 * oha writes a JSON summary (`-o oha.json`) and, after it, every answered request to SQLite
 * (`--db-url requests.db`, table `oha`), which gives the per-second series and the standard deviation.
 *
 * What oha's output means (read from its source, src/lib.rs, client.rs, result_data.rs, printer.rs, db.rs):
 * - Any HTTP answer is a "success" to oha, whatever its status; errors are strings, counted by message.
 *   Here successes are answers with [DriveRequest.expectedStatus]; other answers are `errors["status"]`.
 * - `-t` bounds the whole request, connecting included; a connect that outlasts `--connect-timeout`
 *   (5 s) is also reported as "timeout". Timed-out requests are errors, not answers.
 * - "aborted due to deadline": in the closed model, the requests in flight when `-z` ran out (one per
 *   busy connection). In the open model oha counts one per connection task it cancels at the deadline,
 *   idle ones included, and never counts the sends still queued; so there the requests in flight or
 *   queued are estimated as intended sends (rate × duration) minus answers minus errors.
 * - Latency figures (min, mean, max, percentiles) cover every answer, whatever its status; percentiles
 *   are order statistics (the value at index ⌊p·n⌋ of the sorted latencies), p10 … p99.99.
 * - `summary.total` is the window: from the first send to the last worker's end.
 * - The database holds answers only (no errors), and oha appends to an existing file: [command] deletes
 *   a stale one, and [parse] reads only the newest `run`.
 */
class OhaDriver : LoadDriver {
    override val kind = DriverCatalog.OHA

    override fun command(request: DriveRequest, executable: Path): List<String> {
        require(request.traffic == null) { "oha sends one request template for a whole run: it can neither draw values per request nor mix requests (use k6 or wrk)" }
        LoadSupport.checkBasicAuth(request.basicAuth)
        require(request.threads >= 1) { "oha needs at least one worker thread, not ${request.threads}" }
        Files.createDirectories(request.outputDir)
        Files.deleteIfExists(jsonFile(request))
        Files.deleteIfExists(dbFile(request))
        val args = mutableListOf(
            executable.toString(), "--no-tui", "--output-format", "json",
            "-o", jsonFile(request).toString(),
            "--db-url", dbFile(request).toString(),
            "-m", request.method,
            "-t", LoadSupport.humantime(request.timeout),
            "--worker-threads", request.threads.toString(),
        )
        when (val shape = request.shape) {
            is LoadShape.Closed -> {
                require(shape.connections >= 1) { "a closed model needs at least one connection" }
                args += listOf("-c", shape.connections.toString())
            }
            is LoadShape.Open -> {
                // -q 0 means "no limit" to oha: never let a zero rate through
                require(shape.rate > 0) { "an open model needs a rate above 0, not ${shape.rate}" }
                require(shape.connections >= 1) { "an open model needs at least one connection" }
                args += listOf("-q", LoadSupport.plainNumber(shape.rate), "--latency-correction", "-c", shape.connections.toString())
            }
            is LoadShape.Scenario -> throw IllegalArgumentException("oha runs no scenario: a scenario needs driver: k6")
        }
        when (val length = request.length) {
            is LoadLength.Timed -> args += listOf("-z", LoadSupport.humantime(length.duration))
            is LoadLength.Counted -> {
                require(length.requests >= 1) { "a counted run needs at least one request" }
                args += listOf("-n", length.requests.toString())
            }
        }
        val headers = stackbench.runner.suite.RequestHeaders.of(request.body, request.headers)
        request.body?.let { args += listOf("-d", it, "-T", stackbench.runner.suite.RequestHeaders.contentType(headers)!!) }
        stackbench.runner.suite.RequestHeaders.withoutContentType(headers).forEach { (k, v) -> args += listOf("-H", "$k: $v") }
        request.basicAuth?.let { (user, password) -> args += listOf("-a", "$user:$password") }
        args += request.url.toString()
        return args
    }

    override fun parse(request: DriveRequest, stdout: Path, stderr: Path, wallSeconds: Double): LoadResult {
        val json = jsonFile(request)
        if (!Files.isRegularFile(json) || Files.size(json) == 0L) {
            throw IllegalStateException("oha wrote no summary at $json\n${LoadSupport.outputTail(stdout, stderr)}")
        }
        val root = MAPPER.readTree(Files.readString(json))
        val notes = mutableListOf<String>()
        val summary = root.path("summary")
        val window = summary.number("total")?.takeIf { it > 0 } ?: wallSeconds

        val statusCodes = root.path("statusCodeDistribution").properties()
            .associate { (code, n) -> code to n.asLong() }.toSortedMap()
        val responses = statusCodes.values.sum()
        val successes = statusCodes[request.expectedStatus.toString()] ?: 0L

        val errors = sortedMapOf<String, Long>()
        var deadline = 0L
        for ((message, n) in root.path("errorDistribution").properties()) {
            if (message == DEADLINE) deadline += n.asLong()
            else errors.merge(errorKind(message), n.asLong(), Long::plus)
        }
        if (responses > successes) errors["status"] = responses - successes

        val shape = request.shape
        val length = request.length
        val inFlight = when {
            shape is LoadShape.Open && length is LoadLength.Timed -> {
                val intended = ceil(LoadSupport.seconds(length.duration) * shape.rate - 1e-9).toLong()
                val left = maxOf(0L, intended - responses - errors.filterKeys { it != "status" }.values.sum())
                notes += "open model: $left of about $intended intended sends were neither answered nor failed when the window " +
                    "closed (in flight or still queued), estimated from the rate; oha itself counted $deadline " +
                    "\"aborted due to deadline\" (one per connection task it cancelled, idle ones included)"
                left
            }
            else -> deadline
        }

        val percentiles = root.path("latencyPercentiles").properties()
            .mapNotNull { (key, v) -> key.removePrefix("p").toDoubleOrNull()?.let { p -> v.numberOrNull()?.let { p to it * 1000.0 } } }
            .toMap()
        val max = summary.number("slowest")?.times(1000.0)
        val spectrum = percentiles.filterKeys { it >= 50.0 }.toSortedMap().map { (p, ms) -> PercentilePoint(p, ms) } +
            listOfNotNull(max?.let { PercentilePoint(100.0, it) })

        val series = PerSecondSeries(request.expectedStatus)
        val db = dbFile(request)
        if (Files.isRegularFile(db)) {
            readRequests(db, series)
            if (series.count != responses) {
                notes += "requests.db holds ${series.count} answers, oha.json counts $responses"
            }
        } else {
            notes += "oha wrote no requests.db: no per-second series and no standard deviation"
        }
        val perSecond = if (series.count > 0) series.seconds(window) else emptyList()
        if (series.count > 0) {
            val excluded = series.excluded(window)
            if (window < 1.0) {
                notes += "the window lasted %.3f s: its one second in the series is partial".format(window)
            } else if (excluded > 0) {
                notes += "perSecond covers the ${perSecond.size} whole seconds of a %.3f s window; ".format(window) +
                    "$excluded answers that ended in the last partial second are not in it"
            }
        }
        if (responses > successes) {
            notes += "latency figures cover every answer, ${responses - successes} without the expected status " +
                "${request.expectedStatus} included"
        }
        if (responses == 0L) notes += "no answers: no latency figures"

        return LoadResult(
            driver = kind.id,
            model = if (shape is LoadShape.Open) "open" else "closed",
            latencyCorrected = shape is LoadShape.Open,
            wallSeconds = window,
            responses = responses,
            successes = successes,
            throughput = if (window > 0) successes / window else 0.0,
            statusCodes = statusCodes,
            errors = errors,
            inFlightAtEnd = inFlight,
            aborted = if (deadline > 0) mapOf(LoadResult.DEADLINE to deadline) else emptyMap(),
            latency = LatencyStats(
                min = summary.number("fastest")?.times(1000.0),
                mean = summary.number("average")?.times(1000.0),
                stdev = series.stdevMs(),
                p50 = percentiles[50.0],
                p90 = percentiles[90.0],
                p99 = percentiles[99.0],
                p999 = percentiles[99.9],
                p9999 = percentiles[99.99],
                max = max,
            ),
            spectrum = spectrum,
            perSecond = perSecond,
            notes = notes,
        )
    }

    /** Reads the newest run's answers: end time and latency in seconds from the window's start, status. */
    private fun readRequests(db: Path, series: PerSecondSeries) {
        DriverManager.getConnection("jdbc:sqlite:$db").use { conn ->
            conn.prepareStatement(
                "SELECT \"end\", duration, status FROM oha WHERE run = (SELECT MAX(run) FROM oha) ORDER BY \"end\"",
            ).use { st ->
                st.executeQuery().use { rs ->
                    while (rs.next()) series.add(rs.getDouble(1), rs.getDouble(2), rs.getInt(3))
                }
            }
        }
    }

    companion object {
        const val JSON_FILE = "oha.json"
        const val DB_FILE = "requests.db"

        /** oha's message for a request cut off when `-z` ran out. */
        const val DEADLINE = "aborted due to deadline"

        private val MAPPER = JsonMapper.builder().build()

        fun jsonFile(request: DriveRequest): Path = request.outputDir.resolve(JSON_FILE)
        fun dbFile(request: DriveRequest): Path = request.outputDir.resolve(DB_FILE)

        /**
         * The kind of failure an oha error message names. The messages are oha's ClientError texts:
         * its own ("timeout"), std::io errors ("Connection refused (os error 111)"), hyper's
         * ("connection closed before message completed"), DNS and TLS errors.
         */
        fun errorKind(message: String): String {
            val m = message.lowercase()
            return when {
                m == "timeout" -> "timeout"
                CONNECT.any { it in m } -> "connect"
                WRITE.any { it in m } -> "write"
                READ.any { it in m } -> "read"
                else -> "other"
            }
        }

        private val CONNECT = listOf(
            "connection refused", "os error 111", "no route to host", "network is unreachable", "host is unreachable",
            "cannot assign requested address", "address not available", "too many open files", "os error 24",
            "no record returned from dns", "failed to get port", "failed to get host", "dns", "resolve",
            "error trying to connect", "tls", "certificate", "handshake",
        )
        private val WRITE = listOf("error writing a body", "broken pipe", "os error 32")
        private val READ = listOf(
            "connection closed before message completed", "error reading a body", "connection reset", "os error 104",
            "connection error", "channel closed", "unexpected eof", "received unexpected message", "parsed",
            "message head is too large", "invalid http", "incomplete",
        )
    }
}

private fun JsonNode.number(name: String): Double? = get(name)?.numberOrNull()

private fun JsonNode.numberOrNull(): Double? = if (isNumber) doubleValue() else null
