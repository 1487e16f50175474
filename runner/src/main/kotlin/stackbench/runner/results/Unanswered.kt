package stackbench.runner.results

import kotlin.math.roundToInt

/**
 * A measured window judged by its answers, not its errors: a closed model whose every connection waited
 * past the window's end (oha counts those "aborted due to deadline", not as errors) has 0 errors and 0 req/s.
 * Pure, so it is tested on recorded driver outputs.
 */
object Unanswered {
    /** Under this share of the requests sent answered with the expected status, the window is flagged `unanswered`. */
    const val MIN_ANSWERED_SHARE = 0.5

    /**
     * Requests the window sent that ended or were cut off: answers (any status), failures, and those unanswered at
     * its end ([LoadResult.inFlightAtEnd]: in a closed model oha's deadline aborts, in an open one the estimate).
     */
    fun sent(m: LoadResult): Long = m.responses + (m.errorCount - (m.errors["status"] ?: 0)) + m.inFlightAtEnd

    /** Why a window with no successful answer failed its cell, or null when it had one. */
    fun failure(m: LoadResult, expectedStatus: Int): String? {
        if (m.successes > 0) return null
        return "the measured window had no successful answer ($expectedStatus): ${account(m)}"
    }

    /** The flag of a window that answered far fewer requests than it sent, or null. */
    fun flag(m: LoadResult): Flag? {
        val sent = sent(m)
        if (m.successes == 0L || sent == 0L || m.successes >= MIN_ANSWERED_SHARE * sent) return null
        return Flag("unanswered", "only ${(m.successes * 100.0 / sent).roundToInt()} % of the requests sent were answered successfully: ${account(m)}", "throughput")
    }

    /** What became of the requests sent: answered, failed by kind, aborted by kind, still in flight. */
    fun account(m: LoadResult): String = buildList {
        add("${sent(m)} requests sent, ${m.successes} answered successfully")
        if (m.errorCount > 0) add("${m.errorCount} failed (${m.errors.entries.joinToString(", ") { "${it.value} ${it.key}" }})")
        if (m.aborted.isNotEmpty()) add("${m.aborted.values.sum()} aborted unanswered (${m.aborted.entries.joinToString(", ") { "${it.value} ${it.key}" }})")
        if (m.inFlightAtEnd > 0 && m.inFlightAtEnd != m.aborted.values.sum()) add("${m.inFlightAtEnd} in flight or queued when the window closed")
        if (m.dropped > 0) add("${m.dropped} iterations dropped, never sent (every user busy)")
    }.joinToString(", ")
}
