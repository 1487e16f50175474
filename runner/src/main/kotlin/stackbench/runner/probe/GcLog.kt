package stackbench.runner.probe

import stackbench.runner.results.GcPause
import java.time.OffsetDateTime
import java.time.format.DateTimeFormatter

/**
 * GC pauses from a unified JVM log written with `-Xlog:gc:file=...:utctime,uptime,level,tags`, e.g.
 * `[2026-11-22T06:00:01.234+0000][1.234s][info][gc] GC(3) Pause Young (Allocation Failure) 24M->5M(768M) 3.456ms`.
 */
object GcLog {
    private val LINE = Regex("""^\[([^\]]+)\]\[[^\]]*\]\[[^\]]*\]\[gc\s*\] GC\(\d+\) (Pause .*?) \d+[KMG]->\d+[KMG]\(\d+[KMG]\) ([0-9.]+)ms\s*$""")
    private val TIME: DateTimeFormatter = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ")

    fun parse(lines: List<String>): List<GcPause> = lines.mapNotNull { line ->
        val m = LINE.find(line) ?: return@mapNotNull null
        val at = runCatching { OffsetDateTime.parse(m.groupValues[1], TIME).toInstant().toEpochMilli() }.getOrNull() ?: return@mapNotNull null
        GcPause(at, m.groupValues[3].toDouble(), m.groupValues[2].trim())
    }
}
