package stackbench.runner.history

/** Rows of a history for tests: run `t-i` of suite `t`, started on 2026-11-2i, and a configuration's figures in it. */
object HistoryRows {
    fun run(i: Int, commit: String = "c$i", jdk: String = "openjdk version \"25.0.3\" 2026-04-21 LTS", boot: String = "4.1.1") = RunRow(
        "t-$i", "t", "2026-11-2${i}T00:00:00.123Z", null, "complete", "test", commit, false, "runner", jdk, "6.1", boot, 1.0, "/r/t-$i",
    )

    /** [key] is `app/endpoint/load`; the interval is ±2 % of the throughput. */
    fun cell(i: Int, throughput: Double?, p99: Double? = 10.0, key: String = "a/b/c1") = key.split('/').let { (app, endpoint, load) ->
        CellRow("t-$i", key, app, endpoint, load, 3, 3, throughput, throughput?.times(0.98), throughput?.times(1.02), p99, null, null)
    }
}
