package stackbench.runner.database

/** One statement's cumulative counters in `pg_stat_statements` at one moment. */
data class StatementCounter(val key: String, val query: String, val calls: Long, val totalExecMs: Double)

/** What the statements did between two readings: calls and execution time, in all and per statement. */
data class StatementWindow(val calls: Long, val execMs: Double, val statements: List<StatementCounter>) {
    /** The mean execution time of a call, or null without calls. */
    val meanExecMs: Double? get() = if (calls > 0) execMs / calls else null
}

/**
 * The window's share of `pg_stat_statements`' cumulative counters: each statement's counters at the window's end less
 * those at its start. A statement first seen at the end counts whole; one whose calls went down was reset or evicted
 * and counted again from zero within the window, so it too counts whole (its end reading). Pure.
 */
object StatementCounts {
    fun difference(start: List<StatementCounter>, end: List<StatementCounter>): StatementWindow {
        val before = start.associateBy { it.key }
        val deltas = end.mapNotNull { e ->
            val b = before[e.key]
            val d = if (b == null || e.calls < b.calls) e else e.copy(calls = e.calls - b.calls, totalExecMs = (e.totalExecMs - b.totalExecMs).coerceAtLeast(0.0))
            d.takeIf { it.calls > 0 }
        }.sortedByDescending { it.totalExecMs }
        return StatementWindow(deltas.sumOf { it.calls }, deltas.sumOf { it.totalExecMs }, deltas)
    }
}

/** A process's CPU time from its `/proc/<pid>/stat` line: user and system time, in clock ticks of [ticksPerSecond]. Pure. */
object ProcStat {
    /** utime + stime in ms, or null when [line] is not a stat line. The command (field 2) may hold spaces and parentheses. */
    fun cpuMs(line: String, ticksPerSecond: Int = 100): Double? {
        val rest = line.substringAfterLast(") ", "").split(' ')
        // after the command: state (3), ppid (4) ... utime (14), stime (15): indexes 11 and 12 here
        if (rest.size < 13) return null
        val ticks = (rest[11].toLongOrNull() ?: return null) + (rest[12].toLongOrNull() ?: return null)
        return ticks * 1000.0 / ticksPerSecond
    }
}
