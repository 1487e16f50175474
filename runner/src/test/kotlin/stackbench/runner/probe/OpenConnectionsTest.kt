package stackbench.runner.probe

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class OpenConnectionsTest {
    // a /proc/net/tcp table: the app listens on 0x1F90 = 8080; states 0A listen, 01 established, 08 close-wait, 06 time-wait
    private val table = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0
           1: 0100007F:1F90 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0000000000000000 20 4 30 10 -1
           2: 0100007F:1F90 0100007F:D2F2 08 00000000:0000004E 00:00000000 00000000     0        0 3 1 0000000000000000 20 4 30 10 -1
           3: 0100007F:1F90 0100007F:D2F4 06 00000000:00000000 03:00000F2B 00000000     0        0 0 3 0000000000000000
           4: 0100007F:D2F0 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 4 1 0000000000000000 20 4 30 10 -1
           5: 0100007F:1F91 0100007F:D2F6 01 00000000:00000000 00:00000000 00000000     0        0 5 1 0000000000000000 20 4 30 10 -1
    """.trimIndent().lines()

    @Test
    fun `established and close-wait connections on the app's port count, but listening, time-wait, client ends and other ports do not`() {
        assertThat(OpenConnections.count(table, 8080)).isEqualTo(2)
        assertThat(OpenConnections.count(table, 8081)).isEqualTo(1)
        assertThat(OpenConnections.count(table, 9999)).isEqualTo(0)
    }

    @Test
    fun `a header alone or a short line counts nothing`() {
        assertThat(OpenConnections.count(table.take(1), 8080)).isEqualTo(0)
        assertThat(OpenConnections.count(listOf("header", "garbage"), 8080)).isEqualTo(0)
    }

    @Test
    fun `this process's own listening socket with a client on it is seen through its proc table`() {
        java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress()).use { server ->
            java.net.Socket(java.net.InetAddress.getLoopbackAddress(), server.localPort).use {
                server.accept().use {
                    assertThat(OpenConnections.read(ProcessHandle.current().pid(), server.localPort)).isEqualTo(1)
                }
            }
        }
    }
}
