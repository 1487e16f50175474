package stackbench.runner.load

import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.plan.LoadShape
import stackbench.runner.results.LatencyStats
import stackbench.runner.results.LoadResult
import stackbench.runner.results.PercentilePoint
import stackbench.runner.results.SecondStat
import stackbench.runner.suite.LoadLength
import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper
import java.nio.file.Files
import java.nio.file.Path

/**
 * wrk 4.1.0, closed model only: `-t THREADS -c N -d SECONDS --latency --timeout SECONDS -s stackbench.lua URL`.
 * The Lua script (resource `load/stackbench-wrk.lua`, copied into the output folder with the phase's
 * settings) sets method, body and headers, and its `done()` writes `wrk.json`: duration, requests,
 * bytes, wrk's error counters, latency (µs) and, with [perSecond], answers per second and per status.
 *
 * [perSecond] defines a `response()` hook, which makes wrk hand every answer's headers and body to Lua:
 * measured on 2 cores (wrk and a C epoll server pinned one core each, 50 connections, 6 headers and a
 * 92-byte body) it cost about 12 % of wrk's throughput and 14 % more wrk CPU per request (about 1 µs).
 * It matters only when wrk itself is the bottleneck; turn it off for those runs. Without it, successes
 * are derived from wrk's counters and there is no per-second series and no status breakdown.
 *
 * What wrk's figures mean (src/wrk.c, stats.c, script.c):
 * - `requests` counts every parsed answer, whatever its status, late ones included; requests that fail
 *   on a socket (connect/read/write errors) are not in it, nor those in flight when the run stops
 *   (wrk reports none of these; [LoadResult.inFlightAtEnd] stays 0).
 * - `errors.status` counts answers with status > 399 (3xx and other 2xx are not errors to wrk).
 * - `errors.timeout` counts answers that arrived later than `--timeout`: wrk has no request timeout,
 *   a request never answered hangs until the end and is counted nowhere. Late answers are kept out
 *   of the latency histogram; here they count as answers but not as successes.
 * - Connect errors: wrk reconnects at once, so a dead server gives one error per attempt. wrk refuses
 *   to start at all when nothing listens at the URL ("unable to connect").
 * - The latency histogram is corrected after the run by wrk's own coordinated-omission compensation
 *   (stats_correct: each latency above twice the mean interval per connection adds synthetic samples),
 *   so its percentiles are neither raw nor truly open-model; [LoadResult.latencyCorrected] is false.
 * - `-d` and `--timeout` take whole seconds; the run stops on the next 100 ms tick after `-d`.
 * - Each thread gets connections / threads connections: [threadsFor] picks a thread count that divides
 *   the connections so none are silently dropped.
 */
class WrkDriver(val perSecond: Boolean = true) : LoadDriver {
    override val kind = DriverCatalog.WRK

    override fun command(request: DriveRequest, executable: Path): List<String> {
        val shape = request.shape
        require(shape is LoadShape.Closed) {
            "wrk drives a closed model only (N connections, each sending when the last answer arrived); " +
                "an open model at ${(shape as LoadShape.Open).rate} req/s needs oha"
        }
        val length = request.length
        require(length is LoadLength.Timed) {
            "wrk runs for a duration only (-d); it cannot send a fixed number of requests " +
                "(${(length as LoadLength.Counted).requests} asked): use oha for a counted run"
        }
        require(shape.connections >= 1) { "a closed model needs at least one connection" }
        require(request.threads >= 1) { "wrk needs at least one thread, not ${request.threads}" }
        LoadSupport.checkBasicAuth(request.basicAuth)
        Files.createDirectories(request.outputDir)
        Files.deleteIfExists(jsonFile(request))
        Files.writeString(scriptFile(request), script(request))
        return listOf(
            executable.toString(),
            "-t", WrkTraffic.threads(request.traffic, request.threads, shape.connections).toString(),
            "-c", shape.connections.toString(),
            "-d", "${LoadSupport.wholeSeconds(length.duration)}s",
            "--latency",
            "--timeout", "${LoadSupport.wholeSeconds(request.timeout)}s",
            "-s", scriptFile(request).toString(),
            request.url.toString(),
        )
    }

    /** The Lua script for [request]: the resource with its @@CONFIG@@ line replaced by the phase's settings. */
    fun script(request: DriveRequest): String {
        val template = WrkDriver::class.java.getResourceAsStream(SCRIPT_RESOURCE)?.use { it.readBytes().decodeToString() }
            ?: throw IllegalStateException("the wrk script $SCRIPT_RESOURCE is missing from the classpath")
        val headers = buildList {
            addAll(stackbench.runner.suite.RequestHeaders.of(request.body, request.headers).toList())
            request.basicAuth?.let { (user, password) -> add("Authorization" to LoadSupport.basicAuthHeader(user, password)) }
        }
        val config = "sb = { " + listOf(
            "output = ${lua(jsonFile(request).toString())}",
            "method = ${lua(request.method)}",
            "body = ${request.body?.let { secret(it) } ?: "nil"}",
            "headers = { " + headers.joinToString(", ") { (k, v) -> "[${lua(k)}] = ${secret(v)}" } + " }",
            "per_second = $perSecond",
            "expected = ${request.expectedStatus}",
        ).plus(listOfNotNull(request.traffic?.let { t ->
            val shape = request.shape
            val threads = WrkTraffic.threads(t, request.threads, shape.connections)
            val seconds = (request.length as? LoadLength.Timed)?.let { LoadSupport.wholeSeconds(it.duration) } ?: 0L
            WrkTraffic.config(t, threads, seconds * 1_000_000L, LoadSupport.wholeSeconds(request.timeout) * 1_000_000L)
        })).joinToString(", ") + " }"
        val lines = template.lines()
        check(lines.count { it.startsWith(CONFIG_MARK) } == 1) { "the wrk script has no single $CONFIG_MARK line" }
        return lines.joinToString("\n") { if (it.startsWith(CONFIG_MARK)) config else it }
    }

    override fun parse(request: DriveRequest, stdout: Path, stderr: Path, wallSeconds: Double): LoadResult {
        val json = jsonFile(request)
        if (!Files.isRegularFile(json) || Files.size(json) == 0L) {
            throw IllegalStateException("wrk wrote no summary at $json (its done() hook did not run)\n${LoadSupport.outputTail(stdout, stderr)}")
        }
        val root = MAPPER.readTree(Files.readString(json))
        val notes = mutableListOf<String>()
        val window = root.get("durationUs")?.asLong()?.takeIf { it > 0 }?.let { it / 1e6 } ?: wallSeconds
        val requests = root.path("requests").asLong()
        val e = root.path("errors")
        val timeouts = e.path("timeout").asLong()
        val statusErrors = e.path("status").asLong()

        val statusCodes = root.path("statusCodes").properties().associate { (code, n) -> code to n.asLong() }.toSortedMap()
        val hooked = root.path("statusCodes").isObject
        val traffic = request.traffic
        val named = if (traffic?.mixed == true) WrkTraffic.named(traffic, root.path("named").values().map { it.asString() }, window) else emptyList()
        // a mix's answers each have their own request's expected status: its successes are theirs
        val expectedAnswers = if (named.isNotEmpty()) named.sumOf { it.successes } + timeouts
            else if (hooked) statusCodes[request.expectedStatus.toString()] ?: 0L else requests - statusErrors
        // a late answer (wrk's timeout) is an answer, but not a success
        val successes = maxOf(0L, expectedAnswers - timeouts)
        val errors = sortedMapOf<String, Long>()
        for (k in listOf("connect", "read", "write")) e.path(k).asLong().takeIf { it > 0 }?.let { errors[k] = it }
        if (timeouts > 0) errors["timeout"] = timeouts
        val unexpected = if (hooked || named.isNotEmpty()) requests - expectedAnswers else statusErrors
        if (unexpected > 0) errors["status"] = unexpected

        if (!hooked) {
            notes += "no per-second series and no status breakdown (the response() hook was off): successes are " +
                "answers with a status below 400 as wrk counts them, the expected ${request.expectedStatus} assumed"
        }
        if (timeouts > 0) {
            notes += "$timeouts answers arrived after the timeout: wrk counts them only when they arrive (a request " +
                "never answered is counted nowhere); they are answers here, not successes"
        }
        notes += "wrk does not report requests in flight when the window closed (up to one per connection)"
        val shape = request.shape
        if (named.isNotEmpty()) {
            notes += "each request of the mix read apart: wrk ran one thread a connection (its Lua hooks cannot tell connections apart); " +
                "their latency is measured in Lua from request() to response(), in buckets 2 % wide, and is not corrected for " +
                "coordinated omission, unlike wrk's own latency of all requests together"
            val counted = named.sumOf { it.responses }
            if (counted != requests) notes += "the mix's requests hold $counted answers, wrk counted $requests (an answer after a reconnect is counted by wrk alone)"
        }
        if (traffic != null && traffic.feeds.isNotEmpty()) {
            notes += "values drawn per request from " + traffic.feeds.joinToString { "${it.name} (${it.rows.size} from ${it.source}, ${it.pick.id})" } +
                "; sequential feeds: each thread walks the rows from its own offset"
        }
        if (shape is LoadShape.Closed && traffic?.mixed != true) {
            val threads = threadsFor(request.threads, shape.connections)
            if (threads != request.threads) {
                notes += "wrk ran $threads threads, not ${request.threads}: each thread gets connections / threads " +
                    "connections, and $threads is the most that divides ${shape.connections}"
            }
        }
        (request.length as? LoadLength.Timed)?.duration?.let { d ->
            if (d.toNanos() % 1_000_000_000L != 0L) notes += "wrk takes whole seconds: -d ${LoadSupport.wholeSeconds(d)}s for $d"
        }
        if (request.timeout.toNanos() % 1_000_000_000L != 0L) {
            notes += "wrk takes whole seconds: --timeout ${LoadSupport.wholeSeconds(request.timeout)}s for ${request.timeout}"
        }

        val lat = root.path("latencyUs")
        val pct = lat.path("percentiles").properties()
            .mapNotNull { (k, v) -> k.toDoubleOrNull()?.let { it to v.asDouble() / 1000.0 } }.toMap()
        val spectrum = root.path("spectrumUs").values().map { PercentilePoint(it.get(0).asDouble(), it.get(1).asDouble() / 1000.0) }
        if (!lat.isObject) notes += "wrk recorded no latency (no answer within the timeout)"

        val perSecond = mutableListOf<SecondStat>()
        if (root.path("perSecond").isArray) {
            val rows = root.path("perSecond").values().associate { it.get(0).asInt() to (it.get(1).asLong() to it.get(2).asLong()) }
            val whole = PerSecondSeries.wholeSecondsOf(window)
            for (s in 0 until whole) {
                val (answers, ok) = rows[s] ?: (0L to 0L)
                perSecond += SecondStat(s, answers, ok)
            }
            val excluded = rows.filterKeys { it < 0 || it >= whole }.values.sumOf { it.first }
            if (window < 1.0) notes += "the window lasted %.3f s: its one second in the series is partial".format(window)
            else if (excluded > 0) {
                notes += "perSecond covers the $whole whole seconds of a %.3f s window; ".format(window) +
                    "$excluded answers that ended in the last partial second are not in it"
            }
            notes += "wrk gives no per-second latency: perSecond has counts only"
        }

        return LoadResult(
            driver = kind.id,
            model = "closed",
            latencyCorrected = false,
            wallSeconds = window,
            responses = requests,
            successes = successes,
            throughput = if (window > 0) successes / window else 0.0,
            statusCodes = statusCodes,
            errors = errors,
            inFlightAtEnd = 0,
            latency = LatencyStats(
                min = lat.us("min"),
                mean = lat.us("mean"),
                stdev = lat.us("stdev"),
                p50 = pct[50.0],
                p90 = pct[90.0],
                p99 = pct[99.0],
                p999 = pct[99.9],
                p9999 = pct[99.99],
                max = lat.us("max"),
            ),
            spectrum = spectrum,
            perSecond = perSecond,
            notes = notes,
            requests = named,
        )
    }

    companion object {
        const val SCRIPT_RESOURCE = "/load/stackbench-wrk.lua"
        const val SCRIPT_FILE = "stackbench.lua"
        const val JSON_FILE = "wrk.json"
        private const val CONFIG_MARK = "-- @@CONFIG@@"
        private val MAPPER = JsonMapper.builder().build()

        fun scriptFile(request: DriveRequest): Path = request.outputDir.resolve(SCRIPT_FILE)
        fun jsonFile(request: DriveRequest): Path = request.outputDir.resolve(JSON_FILE)

        /**
         * wrk gives each thread connections / threads connections and drops the remainder: the largest
         * thread count up to [threads] that divides [connections] keeps them all.
         */
        fun threadsFor(threads: Int, connections: Int): Int =
            (minOf(threads, connections) downTo 1).first { connections % it == 0 }

        /** [s] as a Lua expression that reads each `${'$'}{env:NAME}` with `os.getenv` as the script runs: the file holds no value. */
        fun secret(s: String): String = stackbench.runner.suite.Secrets.expression(s, ::lua, { "os.getenv(${lua(it)})" }, " .. ")

        /** A Lua string literal: quotes, backslashes, control and non-ASCII bytes escaped as \ddd. */
        fun lua(s: String): String = buildString {
            append('"')
            for (b in s.toByteArray(Charsets.UTF_8)) {
                val c = b.toInt() and 0xff
                when {
                    c == '"'.code -> append("\\\"")
                    c == '\\'.code -> append("\\\\")
                    c < 0x20 || c >= 0x7f -> append('\\').append(c.toString().padStart(3, '0'))
                    else -> append(c.toChar())
                }
            }
            append('"')
        }
    }
}

private fun JsonNode.us(name: String): Double? = get(name)?.takeIf { it.isNumber }?.let { it.doubleValue() / 1000.0 }
