package stackbench.runner.host.relay

import org.HdrHistogram.Histogram

/**
 * How late the delay relay let its chunks go, past the time each was due: the error of the emulated round trip
 * that the relay itself adds (a timer that woke late, a CPU that was busy or idle). Written by the relay to its
 * log when it stops; [parse] reads it back (RttKnownTruthIT prints it).
 */
data class Lateness(val chunks: Long, val p50Us: Long, val p99Us: Long, val maxUs: Long) {
    companion object {
        const val PREFIX = "stackbench-relay lateness:"

        fun line(h: Histogram): String =
            "$PREFIX chunks ${h.totalCount}, p50 ${h.getValueAtPercentile(50.0)} us, p99 ${h.getValueAtPercentile(99.0)} us, max ${h.maxValue} us"

        private val pattern = Regex("""${Regex.escape(PREFIX)} chunks (\d+), p50 (\d+) us, p99 (\d+) us, max (\d+) us""")

        /** The last lateness line in a relay's log, or null when the relay did not write one (killed, or never stopped). */
        fun parse(log: String): Lateness? = pattern.findAll(log).lastOrNull()?.destructured?.let { (n, p50, p99, max) ->
            Lateness(n.toLong(), p50.toLong(), p99.toLong(), max.toLong())
        }
    }
}
