package stackbench.runner.load

import stackbench.runner.results.LatencyStats
import stackbench.runner.results.NamedLoad
import stackbench.runner.results.PercentilePoint
import stackbench.runner.suite.Placeholders
import stackbench.runner.suite.RequestHeaders
import stackbench.runner.suite.Traffic
import kotlin.math.exp

/**
 * wrk's fed and mixed requests: the `traffic = {...}` entry of the Lua script's settings (the script's request() builds
 * each request from it), and the per-request figures its threads leave (`named` in wrk.json), read back.
 *
 * wrk's Lua hooks are not told which connection a request or an answer belongs to, so a mix runs one connection a
 * thread ([threads]): each answer is then the answer to the thread's last request, and is counted under its name. Its
 * latency, measured in Lua from request() to response(), is raw: wrk's coordinated-omission correction applies to its
 * own histogram (all requests together) only.
 */
object WrkTraffic {
    /** The Lua histogram's buckets per unit of ln(µs): 2 % wide. */
    const val BUCKETS = 50.0

    /** wrk's thread count for [traffic] at [connections]: one a connection for a mix, else [threads] as for one request. */
    fun threads(traffic: Traffic?, threads: Int, connections: Int): Int =
        if (traffic?.mixed == true) connections else WrkDriver.threadsFor(threads, connections)

    /** The `traffic = {...}` Lua field: header and body text through [WrkDriver.secret], so the script holds no secret's value. */
    fun config(traffic: Traffic, threads: Int, durationUs: Long, timeoutUs: Long): String {
        val lua = WrkDriver::lua
        val feeds = traffic.feeds.joinToString(", ", "{ ", " }") { f ->
            "{ pick = ${lua(f.pick.id)}, rows = " + f.rows.joinToString(", ", "{ ", " }") { row -> row.joinToString(", ", "{", "}") { lua(it) } } + " }"
        }
        val requests = traffic.requests.withIndex().joinToString(", ", "{ ", " }") { (i, r) ->
            val headers = RequestHeaders.of(r.body, r.headers).entries.joinToString(", ", "{ ", " }") { (k, v) -> "{ ${lua(k)}, ${parts(v, traffic, secret = true)} }" }
            "{ index = ${i + 1}, name = ${lua(r.name)}, method = ${lua(r.method)}, weight = ${r.weight}, expected = ${r.status}, " +
                "path = ${parts(r.path, traffic, secret = false)}, body = ${r.body?.let { parts(it, traffic, secret = true) } ?: "nil"}, headers = $headers }"
        }
        return "traffic = { mixed = ${traffic.mixed}, threads = $threads, duration_us = $durationUs, timeout_us = $timeoutUs, feeds = $feeds, requests = $requests }"
    }

    /** [text] as a Lua list of parts: strings (a secret read with os.getenv as the script runs) and `{feed, column}`, 1-based. */
    fun parts(text: String, traffic: Traffic, secret: Boolean): String =
        Placeholders.parts(text, traffic.feeds).joinToString(", ", "{ ", " }") { p ->
            when (p) {
                is Placeholders.Part.Text -> if (secret) WrkDriver.secret(p.text) else WrkDriver.lua(p.text)
                is Placeholders.Part.Value -> "{${p.feed + 1}, ${p.column + 1}}"
            }
        }

    /** One request's figures summed over the threads' dumps. */
    private class Sum {
        var responses = 0L
        var ok = 0L
        var late = 0L
        var min = Long.MAX_VALUE
        var max = 0L
        var sum = 0.0
        val statuses = sortedMapOf<String, Long>()
        val buckets = sortedMapOf<Int, Long>()
        val timed get() = buckets.values.sum()
    }

    /**
     * The per-request figures of [dumps] (each thread's `sb_dump`: a line a request, `index answers ok late min max sum
     * status:n,... bucket:n,...`), in the mix's order, over a window of [seconds].
     */
    fun named(traffic: Traffic, dumps: List<String>, seconds: Double): List<NamedLoad> {
        val sums = traffic.requests.map { Sum() }
        for (line in dumps.flatMap { it.lines() }.filter { it.isNotBlank() }) {
            val f = line.trim().split(' ')
            require(f.size == 9) { "a wrk thread's per-request line has ${f.size} fields, not 9: '$line'" }
            val s = sums.getOrNull(f[0].toInt() - 1) ?: continue
            s.responses += f[1].toLong()
            s.ok += f[2].toLong()
            s.late += f[3].toLong()
            f[4].toDouble().toLong().takeIf { it >= 0 }?.let { s.min = minOf(s.min, it) }
            s.max = maxOf(s.max, f[5].toDouble().toLong())
            s.sum += f[6].toDouble()
            pairs(f[7]).forEach { (k, n) -> s.statuses.merge(k, n, Long::plus) }
            pairs(f[8]).forEach { (k, n) -> s.buckets.merge(k.toInt(), n, Long::plus) }
        }
        return traffic.requests.zip(sums).map { (r, s) ->
            val errors = sortedMapOf<String, Long>()
            if (s.late > 0) errors["timeout"] = s.late
            (s.responses - s.ok - s.late).takeIf { it > 0 }?.let { errors["status"] = it }
            val timed = s.timed
            fun pct(p: Double): Double? = if (timed == 0L) null else percentile(s.buckets, timed, p)
            NamedLoad(
                name = r.name, request = r.line, responses = s.responses, successes = s.ok,
                throughput = if (seconds > 0) s.ok / seconds else 0.0,
                statusCodes = s.statuses, errors = errors,
                latency = if (timed == 0L) LatencyStats() else LatencyStats(
                    min = s.min / 1000.0, mean = s.sum / timed / 1000.0,
                    p50 = pct(50.0), p90 = pct(90.0), p99 = pct(99.0), p999 = pct(99.9), p9999 = pct(99.99), max = s.max / 1000.0,
                ),
                spectrum = if (timed == 0L) emptyList() else SPECTRUM.map { PercentilePoint(it, pct(it)!!) } + PercentilePoint(100.0, s.max / 1000.0),
            )
        }
    }

    val SPECTRUM = listOf(50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99)

    /** The [p]th percentile (ms) of a histogram of [count] latencies: the middle of the first bucket the rank falls in. */
    fun percentile(buckets: Map<Int, Long>, count: Long, p: Double): Double {
        val rank = maxOf(1L, kotlin.math.ceil(p / 100.0 * count).toLong())
        var seen = 0L
        for ((b, n) in buckets.toSortedMap()) {
            seen += n
            if (seen >= rank) return exp((b + 0.5) / BUCKETS) / 1000.0
        }
        return exp((buckets.keys.max() + 0.5) / BUCKETS) / 1000.0
    }

    private fun pairs(text: String): List<Pair<String, Long>> =
        if (text == "-") emptyList() else text.split(',').map { it.substringBefore(':') to it.substringAfter(':').toDouble().toLong() }
}
