package stackbench.contract

/**
 * What the stats side channel answers: `GET /stats` on the app's stats port (`stackbench.stats.port`),
 * served by its own platform thread so that it answers while every request thread or event loop is busy.
 * [completed] counts the HTTP exchanges the app has completed since it started (not /stats, /info, /actuator);
 * [epochMillis] is when the count was read, by the app's clock.
 */
data class Stats(val completed: Long, val epochMillis: Long) {
    companion object {
        const val PATH = "/stats"
    }
}

/** The JSON body of a 502 answer: the downstream call of [client] failed (connection, timeout or status). */
data class DownstreamFailure(
    val error: String,
    val client: String,
    val url: String,
    val message: String,
) {
    companion object {
        const val ERROR = "downstream_failed"
    }
}
