package stackbench.runner.load

import org.HdrHistogram.Histogram
import stackbench.runner.results.SecondStat
import java.math.BigDecimal
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.Base64
import kotlin.math.floor
import kotlin.math.sqrt

/** Small helpers the drivers share: argument formats, the per-second series, error-message tails. */
internal object LoadSupport {

    /** A duration as humantime reads it (oha's -z, -t): `2s`, `1500ms`, `250us`. */
    fun humantime(d: Duration): String {
        require(!d.isNegative && !d.isZero) { "a driver duration must be positive, not $d" }
        val nanos = d.toNanos()
        return when {
            nanos % 1_000_000_000L == 0L -> "${nanos / 1_000_000_000L}s"
            nanos % 1_000_000L == 0L -> "${nanos / 1_000_000L}ms"
            nanos % 1_000L == 0L -> "${nanos / 1_000L}us"
            else -> "${nanos}ns"
        }
    }

    /** Whole seconds, rounded up, at least 1 (wrk reads -d and --timeout as whole seconds only). */
    fun wholeSeconds(d: Duration): Long {
        require(!d.isNegative && !d.isZero) { "a driver duration must be positive, not $d" }
        val s = d.seconds + if (d.nano > 0) 1 else 0
        return maxOf(1L, s)
    }

    fun seconds(d: Duration): Double = d.toNanos() / 1e9

    /** 200.0 → `200`, 12.5 → `12.5`: no trailing zeros, no exponent. */
    fun plainNumber(x: Double): String = BigDecimal.valueOf(x).stripTrailingZeros().toPlainString()

    fun basicAuthHeader(user: String, password: String): String =
        "Basic " + Base64.getEncoder().encodeToString("$user:$password".toByteArray(Charsets.UTF_8))

    fun checkBasicAuth(auth: Pair<String, String>?) {
        if (auth != null) require(':' !in auth.first) { "an HTTP Basic user name cannot contain ':' (RFC 7617): ${auth.first}" }
    }

    fun tail(path: Path, lines: Int = 15): String = runCatching { Files.readAllLines(path).takeLast(lines).joinToString("\n") }
        .getOrDefault("")

    /** What a driver printed, for an error message: stderr's tail, else stdout's. */
    fun outputTail(stdout: Path, stderr: Path): String {
        val err = tail(stderr)
        val out = tail(stdout)
        return listOf("stderr" to err, "stdout" to out).filter { it.second.isNotBlank() }
            .joinToString("\n") { "${it.first}:\n${it.second.prependIndent("  ")}" }.ifEmpty { "(it printed nothing)" }
    }
}

/**
 * Builds the per-second series from single answers: each answer counts in the second its response ended,
 * counted from the window's start. Only whole seconds of the window are kept (a last partial second
 * would read as a drop in throughput); [excluded] says how many answers fell outside them.
 */
internal class PerSecondSeries(private val expectedStatus: Int) {
    private class Bucket {
        var responses = 0L
        var successes = 0L
        val latencyUs = Histogram(3)
    }

    private val buckets = sortedMapOf<Int, Bucket>()
    private var n = 0L
    private var mean = 0.0
    private var m2 = 0.0

    /** [endSeconds] from the window's start; [latencySeconds] as the driver measured it. */
    fun add(endSeconds: Double, latencySeconds: Double, status: Int) = add(endSeconds, latencySeconds, success = status == expectedStatus)

    /** As [add], for an answer the driver itself judged (k6's `expected_response`, per request of a scenario). */
    fun add(endSeconds: Double, latencySeconds: Double, success: Boolean) {
        val b = buckets.getOrPut(floor(endSeconds).toInt()) { Bucket() }
        b.responses++
        if (success) b.successes++
        b.latencyUs.recordValue(maxOf(1L, Math.round(latencySeconds * 1e6)))
        // Welford, in ms, over every answer
        val ms = latencySeconds * 1000.0
        n++
        val delta = ms - mean
        mean += delta / n
        m2 += delta * (ms - mean)
    }

    val count: Long get() = n

    /** Sample standard deviation of every answer's latency, in ms; null below two answers. */
    fun stdevMs(): Double? = if (n < 2) null else sqrt(m2 / (n - 1))

    /** Whole seconds of a window [windowSeconds] long; a window under one second gives its one partial second. */
    fun seconds(windowSeconds: Double): List<SecondStat> {
        val whole = wholeSecondsOf(windowSeconds)
        return (0 until whole).map { s ->
            val b = buckets[s]
            if (b == null) SecondStat(s, 0, 0) else SecondStat(
                second = s,
                responses = b.responses,
                successes = b.successes,
                p50 = b.latencyUs.getValueAtPercentile(50.0) / 1000.0,
                p99 = b.latencyUs.getValueAtPercentile(99.0) / 1000.0,
            )
        }
    }

    /** Answers that ended outside the kept seconds (after the last whole second). */
    fun excluded(windowSeconds: Double): Long {
        val whole = wholeSecondsOf(windowSeconds)
        return buckets.filterKeys { it < 0 || it >= whole }.values.sumOf { it.responses }
    }

    companion object {
        fun wholeSecondsOf(windowSeconds: Double): Int = maxOf(1, floor(windowSeconds + 1e-9).toInt())
    }
}
