package stackbench.runner.load

import org.HdrHistogram.Histogram
import java.io.BufferedReader

/**
 * Every request one k6 run (or several, merged) made, read from its CSV output (`--out csv=...`, timestamps in
 * ms): per request, k6's `http_req_duration` row (the time the request ended, its duration from sending to the
 * last byte, status, `error_code`, `expected_response`), and the `dropped_iterations` rows. The raw answers are
 * kept (end time, latency, success) for the per-second series, and every answer's latency is in one
 * HdrHistogram, so instances merge by adding histograms, never by averaging percentiles.
 */
class K6Samples private constructor(
    /** Every answer's latency, in µs. */
    val histogram: Histogram,
    private var ends: LongArray,
    private var latenciesUs: LongArray,
    private var successes: BooleanArray,
    /** Answers (and their [latenciesUs], [successes]) held. */
    private var size: Int,
    /** Requests that got no answer, by the lab's kind (`connect`, `timeout`, `read`, `write`, `other`). */
    val failures: Map<String, Long>,
    /** Answers by HTTP status. */
    val statusCodes: Map<String, Long>,
    /** Iterations the executor could not start in time (k6's `dropped_iterations`). */
    val dropped: Long,
    /** The earliest request start, epoch ms (its end less its duration); [Long.MAX_VALUE] with no request. */
    val firstStartMs: Long,
    /** The latest request end, epoch ms; [Long.MIN_VALUE] with no request. */
    val lastEndMs: Long,
    /** The same samples apart by each request's `name` tag (a mix's or a scenario's requests), in the order first seen. */
    val byName: Map<String, K6Samples> = emptyMap(),
) {
    /** Answers (any status). */
    val responses: Long get() = size.toLong()

    /** Answers k6 judged expected (the request's expected status). */
    val expected: Long get() = (0 until size).count { successes[it] }.toLong()

    /** Every request, answered or not. */
    val requests: Long get() = responses + failures.values.sum()

    /** Calls [each] for every answer: its end (epoch ms), its latency (µs), whether it had the expected status. */
    fun forEachAnswer(each: (endMs: Long, latencyUs: Long, success: Boolean) -> Unit) {
        for (i in 0 until size) each(ends[i], latenciesUs[i], successes[i])
    }

    companion object {
        /** k6's metric of a request's duration (sending, waiting, receiving; not connecting). */
        const val DURATION = "http_req_duration"
        const val DROPPED = "dropped_iterations"

        /** The system tags the command asks k6 to write, all this reader needs. */
        val SYSTEM_TAGS = listOf("status", "error_code", "expected_response", "name")

        /** Reads k6's CSV output; rows of other metrics are skipped. */
        fun read(reader: BufferedReader): K6Samples {
            val header = reader.readLine()?.split(',') ?: return empty()
            fun col(name: String) = header.indexOf(name).also { require(it >= 0) { "k6's CSV has no column $name: $header" } }
            val (metric, time, value) = Triple(col("metric_name"), col("timestamp"), col("metric_value"))
            val (status, code, expected) = Triple(col("status"), col("error_code"), col("expected_response"))
            // the request's name tag: absent from the output of k6 runs before requests were named
            val name = header.indexOf("name")
            val b = Builder()
            reader.lineSequence().forEach { line ->
                val f = line.split(',')
                when (f[metric]) {
                    DURATION -> {
                        val (end, ms, st) = Triple(f[time].toLong(), f[value].toDouble(), f[status].toIntOrNull() ?: 0)
                        b.request(end, ms, st, f[code], f[expected] == "true")
                        val tag = f.getOrNull(name).orEmpty()
                        if (name >= 0 && tag.isNotEmpty()) b.named.getOrPut(tag) { Builder() }.request(end, ms, st, f[code], f[expected] == "true")
                    }
                    DROPPED -> b.dropped += f[value].toDouble().toLong()
                }
            }
            return b.build()
        }

        fun empty() = Builder().build()

        /**
         * One run of several instances: histograms added, answers concatenated, counts summed. Throws when the
         * merged request count is not the sum of the parts'.
         */
        fun merge(parts: List<K6Samples>): K6Samples {
            val b = Builder()
            for (p in parts) {
                b.histogram.add(p.histogram)
                p.forEachAnswer { end, us, ok -> b.answer(end, us, ok) }
                p.failures.forEach { (k, n) -> b.failures.merge(k, n, Long::plus) }
                p.statusCodes.forEach { (k, n) -> b.statusCodes.merge(k, n, Long::plus) }
                b.dropped += p.dropped
                b.first = minOf(b.first, p.firstStartMs)
                b.last = maxOf(b.last, p.lastEndMs)
            }
            val names = parts.flatMap { it.byName.keys }.distinct()
            val merged = b.build(addToHistogram = false).withNames(names.associateWith { n -> merge(parts.mapNotNull { it.byName[n] }) })
            val sum = parts.sumOf { it.requests }
            check(merged.requests == sum && merged.histogram.totalCount == parts.sumOf { it.histogram.totalCount }) {
                "the merged run holds ${merged.requests} requests (${merged.histogram.totalCount} latencies) but its ${parts.size} parts " +
                    "hold $sum (${parts.joinToString(" + ") { it.requests.toString() }})"
            }
            return merged
        }

        /**
         * The lab's kind of a k6 error code (lib/netext/httpext/error_codes.go): 1050 request timeout and 1211
         * dial timeout → timeout; DNS (11xx), dial (1210, 1212, 1213), TLS (13xx) → connect; 1201 broken pipe
         * and 1202 errno on write → write; 1220 reset by peer and 1200 other TCP errors → read; the rest → other.
         */
        fun errorKind(code: Int): String = when (code) {
            1050, 1211 -> "timeout"
            in 1100..1199, 1210, 1212, 1213, in 1300..1399 -> "connect"
            1201, 1202 -> "write"
            1200, 1220 -> "read"
            else -> "other"
        }
    }

    private fun withNames(names: Map<String, K6Samples>) =
        K6Samples(histogram, ends, latenciesUs, successes, size, failures, statusCodes, dropped, firstStartMs, lastEndMs, names)

    /** Gathers samples as they are read or merged. */
    class Builder {
        val histogram = Histogram(3)
        private var ends = LongArray(1024)
        private var lat = LongArray(1024)
        private var ok = BooleanArray(1024)
        private var size = 0
        val failures = sortedMapOf<String, Long>()
        val statusCodes = sortedMapOf<String, Long>()
        var dropped = 0L
        var first = Long.MAX_VALUE
        var last = Long.MIN_VALUE
        /** The samples of each named request, apart. */
        val named = linkedMapOf<String, Builder>()

        fun request(endMs: Long, durationMs: Double, status: Int, errorCode: String, expected: Boolean) {
            first = minOf(first, endMs - Math.round(durationMs))
            last = maxOf(last, endMs)
            if (status == 0) {
                failures.merge(errorKind(errorCode.toIntOrNull() ?: 0), 1L, Long::plus)
            } else {
                statusCodes.merge(status.toString(), 1L, Long::plus)
                answer(endMs, maxOf(1L, Math.round(durationMs * 1000)), expected)
            }
        }

        fun answer(endMs: Long, latencyUs: Long, success: Boolean) {
            if (size == ends.size) {
                ends = ends.copyOf(size * 2)
                lat = lat.copyOf(size * 2)
                ok = ok.copyOf(size * 2)
            }
            ends[size] = endMs
            lat[size] = latencyUs
            ok[size] = success
            size++
        }

        fun build(addToHistogram: Boolean = true): K6Samples {
            if (addToHistogram) for (i in 0 until size) histogram.recordValue(lat[i])
            return K6Samples(histogram, ends, lat, ok, size, failures, statusCodes, dropped, first, last,
                named.mapValues { it.value.build(addToHistogram) })
        }
    }
}
