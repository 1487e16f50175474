package stackbench.runner.database

/** The apps' connections over a window: how many were open and how many were running a query, sampled. */
data class ActivitySample(val samples: Int, val connectionsMean: Double?, val connectionsMax: Int?, val activeMean: Double?, val activeMax: Int?) {
    companion object {
        val NONE = ActivitySample(0, null, null, null, null)

        /** The summary of (open, active) readings. Pure. */
        fun of(readings: List<Pair<Int, Int>>): ActivitySample = if (readings.isEmpty()) NONE else ActivitySample(
            readings.size, readings.map { it.first }.average(), readings.maxOf { it.first }, readings.map { it.second }.average(), readings.maxOf { it.second },
        )
    }
}
