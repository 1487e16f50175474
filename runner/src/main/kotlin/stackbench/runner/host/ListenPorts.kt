package stackbench.runner.host

import java.net.InetAddress
import java.net.ServerSocket
import java.nio.file.Files
import java.nio.file.Path

/**
 * The ports the lab hands out for its services to listen on. Never one from the kernel's ephemeral range: a port
 * found free there (a `ServerSocket(0)`) is free only until some outgoing connection — a health poll, a relay's, a
 * load generator's — takes it as its own source port, and a service started a second later then fails to bind
 * (CI saw the app's stats channel fail so). Outside that range only another listener can take a port, and the lab
 * never hands out one of its recent ports again ([handedOut]).
 */
class ListenPorts(
    /** The kernel's ephemeral range (`net.ipv4.ip_local_port_range`), whose ports outgoing connections take. */
    ephemeral: IntRange = ephemeralRange(),
    /** Whether a port is free to bind here; a host whose ports the runner cannot bind itself passes its own check. */
    private val isFree: (Int) -> Boolean,
    /** How many of the ports last handed out are never handed out again. */
    private val memory: Int = 2000,
) {
    val range: IntRange = rangeOutside(ephemeral)

    /** The ports handed out, oldest first: at most [memory] of them, so that a long run never runs out. */
    private val handedOut = LinkedHashSet<Int>()

    /**
     * A port no socket here listens on, not among the last [memory] handed out by this instance: a port handed out
     * moments ago may not be bound yet, and must not go to a second service; one handed out thousands of ports ago is
     * either bound (and [isFree] says so) or free again. [alsoFree] adds what only this call knows (a remote host's
     * ports in use, read just before).
     */
    @Synchronized
    fun next(alsoFree: (Int) -> Boolean = { true }): Int {
        val port = range.shuffled().firstOrNull { it !in handedOut && isFree(it) && alsoFree(it) }
            ?: error("no free port to listen on in $range (outside the ephemeral range): ${handedOut.size} handed out")
        handedOut += port
        if (handedOut.size > memory) handedOut.remove(handedOut.first())
        return port
    }

    companion object {
        /** The block the lab prefers; below the usual ephemeral ranges of Linux (32768-60999) and above the well-known ports. */
        val PREFERRED = 20000..29999
        private const val LOWEST = 1024
        private val RANGE_FILE: Path = Path.of("/proc/sys/net/ipv4/ip_local_port_range")

        /**
         * [PREFERRED] where it does not meet [ephemeral]; otherwise the larger block outside it (below or above,
         * from 1024 to 65535). Fails if the ephemeral range leaves fewer than 1000 ports.
         */
        fun rangeOutside(ephemeral: IntRange): IntRange {
            if (PREFERRED.last < ephemeral.first || PREFERRED.first > ephemeral.last) return PREFERRED
            val below = LOWEST until ephemeral.first
            val above = (ephemeral.last + 1)..65535
            val larger = if (below.count() >= above.count()) below else above
            require(larger.count() >= 1000) { "the ephemeral port range $ephemeral ($RANGE_FILE) leaves only ${larger.count()} ports to listen on" }
            return larger
        }

        /** Parses `ip_local_port_range` ("32768\t60999"). */
        fun parseRange(text: String): IntRange {
            val (low, high) = text.trim().split(Regex("\\s+")).map { it.toInt() }
            return low..high
        }

        /**
         * This machine's ephemeral range; Linux's default where the file cannot be read. Line by line: Files.readString
         * trusts a /proc file's reported size, and read only "3" of "32768\t60999".
         */
        fun ephemeralRange(): IntRange = runCatching { parseRange(Files.readAllLines(RANGE_FILE).first()) }.getOrDefault(LINUX_DEFAULT)

        /** Linux's default ephemeral range. */
        val LINUX_DEFAULT = 32768..60999

        /** Binds [address]:port and lets go: true if nothing listens there. */
        fun bindable(address: String): (Int) -> Boolean = { port ->
            runCatching { ServerSocket(port, 1, InetAddress.getByName(address)).close() }.isSuccess
        }

        /** The runner's own machine, at 127.0.0.1. */
        val LOOPBACK: ListenPorts by lazy { ListenPorts(isFree = bindable("127.0.0.1")) }
    }
}
