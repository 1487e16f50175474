package stackbench.runner.probe

import java.nio.file.Files
import java.nio.file.Path

/**
 * The client connections an app still holds on its port, from the kernel's socket table as the app's own
 * network namespace sees it (/proc/PID/net/tcp and tcp6). A connection the load generator has closed but the
 * app has not yet answered and closed stays in CLOSE_WAIT (or waits, unaccepted, in the listen backlog), so
 * a count of zero means the app has no request left: its completion counter alone cannot say that while a
 * request takes longer than the quiet interval (a 500 ms sleep on each of four event loops completes four
 * requests every 500 ms).
 */
object OpenConnections {
    /** Socket states that may still hold an unanswered request: ESTABLISHED, SYN_RECV, CLOSE_WAIT. */
    private val UNANSWERED = setOf("01", "03", "08")

    /** Connections on local [port] in the lines of a /proc/net/tcp table (the header line is skipped). */
    fun count(table: List<String>, port: Int): Int = table.drop(1).count { line ->
        val fields = line.trim().split(Regex("\\s+"))
        if (fields.size < 4) return@count false
        val local = fields[1]
        val localPort = local.substringAfterLast(':').toIntOrNull(16)
        localPort == port && fields[3] in UNANSWERED
    }

    /** The count for the app [pid] on [port]; null when the tables cannot be read (not Linux, process gone). */
    fun read(pid: Long, port: Int): Int? {
        val tables = listOf("tcp", "tcp6").map { Path.of("/proc/$pid/net/$it") }.filter { Files.isReadable(it) }
        if (tables.isEmpty()) return null
        return runCatching { tables.sumOf { count(Files.readAllLines(it), port) } }.getOrNull()
    }
}
