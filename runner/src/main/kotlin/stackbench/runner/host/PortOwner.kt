package stackbench.runner.host

import java.nio.file.Files
import java.nio.file.Path

/**
 * Which process listens on a TCP port of this machine, read from /proc: so that an answer on the app's port is known to
 * come from the app. Another process can take a port the lab handed out and the app never bound (an app that ignores
 * `{port}`, or a second run on the same machine); the lab would then wait on, or measure, a server that is not the app.
 */
object PortOwner {
    /** A process that listens on the port and is not the app. */
    data class Foreign(val pid: Long?, val command: String?) {
        fun describe(): String = if (pid == null) "a process the lab cannot see" else "pid $pid" + (command?.let { " ($it)" } ?: "")
    }

    private const val LISTEN = "0A"

    /**
     * The inodes of the sockets listening on [port] in a /proc/net/tcp or tcp6 table: lines of
     * `sl local_address rem_address st ... inode`, the local address `HEXADDR:HEXPORT`, state 0A for LISTEN.
     */
    fun listeningInodes(table: String, port: Int): Set<Long> = table.lineSequence().drop(1).mapNotNull { line ->
        val cols = line.trim().split(Regex("\\s+"))
        if (cols.size < 10 || cols[3] != LISTEN) return@mapNotNull null
        val localPort = cols[1].substringAfterLast(':').toIntOrNull(16) ?: return@mapNotNull null
        if (localPort == port) cols[9].toLongOrNull()?.takeIf { it != 0L } else null
    }.toSet()

    /** The socket inode a file-descriptor link names (`socket:[12345]`), or null for any other file. */
    fun socketInode(link: String): Long? = Regex("""socket:\[(\d+)]""").matchEntire(link)?.groupValues?.get(1)?.toLong()

    /**
     * Null when a process of [tree] (the app and its descendants) listens on [port], or when nothing can be read
     * (nothing listens, or /proc is not readable): the check never fails an app on what it cannot see. Otherwise the
     * process that listens there, as far as /proc names it. [netOf] is a process whose network namespace the port is in.
     */
    fun foreignListener(port: Int, tree: Set<Long>, netOf: Long, proc: Path = Path.of("/proc")): Foreign? {
        val inodes = listOf("tcp", "tcp6").flatMap { table ->
            runCatching { listeningInodes(Files.readString(proc.resolve("$netOf/net/$table")), port) }.getOrDefault(emptySet())
        }.toSet()
        if (inodes.isEmpty()) return null
        if (tree.any { pid -> socketsOf(proc, pid).any { it in inodes } }) return null
        val owner = runCatching {
            Files.list(proc).use { dirs ->
                dirs.map { it.fileName.toString() }.filter { it.all(Char::isDigit) }.map { it.toLong() }
                    .filter { it !in tree }.toList()
            }
        }.getOrDefault(emptyList()).firstOrNull { pid -> socketsOf(proc, pid).any { it in inodes } }
        val command = owner?.let { pid ->
            runCatching { Files.readString(proc.resolve("$pid/cmdline")).split('\u0000').filter { it.isNotEmpty() }.joinToString(" ").take(120) }.getOrNull()
        }
        return Foreign(owner, command?.ifBlank { null })
    }

    private fun socketsOf(proc: Path, pid: Long): List<Long> = runCatching {
        Files.list(proc.resolve("$pid/fd")).use { fds ->
            fds.toList().mapNotNull { fd -> runCatching { socketInode(Files.readSymbolicLink(fd).toString()) }.getOrNull() }
        }
    }.getOrDefault(emptyList())
}
