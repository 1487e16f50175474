package stackbench.runner.host

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.net.InetAddress
import java.net.ServerSocket

class PortOwnerTest {
    private val table = """
        |  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
        |   0: 0100007F:4E21 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 51234 1 0000000000000000 100 0 0 10 0
        |   1: 0100007F:4E21 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 51299 1 0000000000000000 20 4 30 10 -1
        |   2: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000000000 100 0 0 10 0
        |""".trimMargin()

    @Test
    fun `the listening sockets of a port are read from a proc net table, not its connections`() {
        assertThat(PortOwner.listeningInodes(table, 20001)).containsExactly(51234L)
        assertThat(PortOwner.listeningInodes(table, 8080)).containsExactly(777L)
        assertThat(PortOwner.listeningInodes(table, 40000)).`as`("a connection's remote port is not a listener").isEmpty()
        assertThat(PortOwner.socketInode("socket:[51234]")).isEqualTo(51234L)
        assertThat(PortOwner.socketInode("/tmp/app.log")).isNull()
    }

    @Test
    fun `a port held by a process outside the app's tree is named, one held inside it or by nobody is not`() {
        val self = ProcessHandle.current().pid()
        ServerSocket(0, 1, InetAddress.getByName("127.0.0.1")).use { socket ->
            assertThat(PortOwner.foreignListener(socket.localPort, setOf(self), self)).`as`("the app's own listener").isNull()
            val foreign = PortOwner.foreignListener(socket.localPort, setOf(-1L), self)
            assertThat(foreign).isNotNull()
            assertThat(foreign!!.pid).isEqualTo(self)
            assertThat(foreign.describe()).startsWith("pid $self (").contains("java")
        }
        val free = ServerSocket(0, 1, InetAddress.getByName("127.0.0.1")).use { it.localPort }
        assertThat(PortOwner.foreignListener(free, setOf(-1L), self)).`as`("nothing listens").isNull()
    }
}
