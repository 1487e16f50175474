package stackbench.runner.results

import com.fasterxml.jackson.annotation.JsonIgnoreProperties

/** What a load driver measured in one phase, in one model whatever the driver. Latencies in ms. */
@JsonIgnoreProperties(value = ["errorCount", "errorRate"], allowGetters = true)
data class LoadResult(
    val driver: String,
    /** `closed`, `open` or `scenario`. */
    val model: String,
    /** True when latency counts from each request's intended send time (coordinated omission corrected). */
    val latencyCorrected: Boolean,
    /** The driver's own measured window. */
    val wallSeconds: Double,
    val responses: Long,
    /** Answers with the expected status. */
    val successes: Long,
    /** successes / wallSeconds. */
    val throughput: Double,
    val statusCodes: Map<String, Long> = emptyMap(),
    /** Failed requests by kind (`connect`, `timeout`, `read`, `write`, `status`, `other`), each counted once. */
    val errors: Map<String, Long> = emptyMap(),
    /** Requests still in flight when the window closed: not errors. */
    val inFlightAtEnd: Long = 0,
    /**
     * Requests the driver gave up on unanswered, by kind, as it reported them (not errors, not answers):
     * `deadline`, oha's "aborted due to deadline", cut off when the window's time ran out.
     */
    val aborted: Map<String, Long> = emptyMap(),
    /**
     * Iterations an arrival-rate load (k6's open model, a scenario's `arrivals:`) was due to start but could not,
     * every user being busy: the generator's overload, k6's `dropped_iterations`. Never sent, so neither answers
     * nor errors; 0 for drivers that delay rather than drop.
     */
    val dropped: Long = 0,
    val latency: LatencyStats = LatencyStats(),
    val spectrum: List<PercentilePoint> = emptyList(),
    val perSecond: List<SecondStat> = emptyList(),
    val notes: List<String> = emptyList(),
    /**
     * The same window read per named request, for a load of more than one request (a mix, a scenario's steps), in
     * the order the suite declares them; empty for a load of one request. The fields above are all requests together.
     */
    val requests: List<NamedLoad> = emptyList(),
) {
    val errorCount: Long get() = errors.values.sum()

    /** Errors as a share of every request that ended (successes and errors). */
    val errorRate: Double get() = (successes + errorCount).let { if (it == 0L) 0.0 else errorCount.toDouble() / it }

    companion object {
        /** The [aborted] kind of requests cut off unanswered when the window's time ran out. */
        const val DEADLINE = "deadline"
    }
}

/** One named request of a mixed load, measured over the same window as its [LoadResult]. */
@JsonIgnoreProperties(value = ["errorCount", "errorRate"], allowGetters = true)
data class NamedLoad(
    /** The name the suite gave it (`read`), or its request line when it gave none. */
    val name: String,
    /** What was sent, as the suite wrote it: `GET /orders/{id}`. */
    val request: String,
    val responses: Long,
    val successes: Long,
    /** successes / the window's wallSeconds. */
    val throughput: Double,
    val statusCodes: Map<String, Long> = emptyMap(),
    val errors: Map<String, Long> = emptyMap(),
    val latency: LatencyStats = LatencyStats(),
    val spectrum: List<PercentilePoint> = emptyList(),
) {
    val errorCount: Long get() = errors.values.sum()

    val errorRate: Double get() = (successes + errorCount).let { if (it == 0L) 0.0 else errorCount.toDouble() / it }
}

data class LatencyStats(
    val min: Double? = null,
    val mean: Double? = null,
    val stdev: Double? = null,
    val p50: Double? = null,
    val p90: Double? = null,
    val p99: Double? = null,
    val p999: Double? = null,
    val p9999: Double? = null,
    val max: Double? = null,
)

data class PercentilePoint(val percentile: Double, val ms: Double)

/** One whole second of a window: answers that ended in it, and their latency where the driver gives it. */
data class SecondStat(val second: Int, val responses: Long, val successes: Long, val p50: Double? = null, val p99: Double? = null)
