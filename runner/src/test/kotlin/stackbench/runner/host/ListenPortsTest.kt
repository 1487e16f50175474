package stackbench.runner.host

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import java.net.InetAddress
import java.net.ServerSocket

class ListenPortsTest {
    @Test
    fun `ports are never from the ephemeral range, where outgoing connections take theirs`() {
        assertThat(ListenPorts.rangeOutside(32768..60999)).isEqualTo(20000..29999)
        // a range that covers the preferred block: the larger side outside it
        assertThat(ListenPorts.rangeOutside(15000..60999)).isEqualTo(1024..14999)
        assertThat(ListenPorts.rangeOutside(10000..40000)).isEqualTo(40001..65535)
        assertThatThrownBy { ListenPorts.rangeOutside(1500..65000) }
            .hasMessageContaining("1500..65000").hasMessageContaining("leaves only")
    }

    @Test
    fun `the kernel's range is read as it is written`() {
        assertThat(ListenPorts.parseRange("32768\t60999\n")).isEqualTo(32768..60999)
        assertThat(ListenPorts.parseRange(" 1024 65000")).isEqualTo(1024..65000)
    }

    @Test
    fun `a port is handed out once, and only if it is free`() {
        val taken = setOf(20000, 20001)
        val ports = ListenPorts(ephemeral = 25000..65535, isFree = { it !in taken })
        assertThat(ports.range).isEqualTo(1024..24999)
        val handed = (1..500).map { ports.next() }
        assertThat(handed).doesNotHaveDuplicates().doesNotContainAnyElementsOf(taken).allMatch { it in ports.range }
    }

    @Test
    fun `a long run never runs out - only the most recent ports are kept from a second service`() {
        val ports = ListenPorts(ephemeral = 25000..65535, isFree = { it in 1024..1033 }, memory = 5)
        val handed = (1..30).map { ports.next() }
        assertThat(handed).allMatch { it in 1024..1033 }
        // any six in a row are distinct: each of the last five is held back from the next
        assertThat(handed.windowed(6)).allSatisfy { assertThat(it).doesNotHaveDuplicates() }
    }

    @Test
    fun `when every port is handed out or taken, the error names the range`() {
        val ports = ListenPorts(ephemeral = 25000..65535, isFree = { it == 5000 })
        assertThat(ports.next()).isEqualTo(5000)
        assertThatThrownBy { ports.next() }.hasMessageContaining("1024..24999").hasMessageContaining("1 handed out")
    }

    @Test
    fun `on this machine's loopback a handed-out port binds, and one something listens on is skipped`() {
        ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { busy ->
            val port = ListenPorts.LOOPBACK.next()
            assertThat(port).isNotEqualTo(busy.localPort).isNotIn(ListenPorts.ephemeralRange())
            ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close()
        }
        assertThat(ListenPorts.bindable("127.0.0.1")(ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { it.localPort })).isTrue()
        ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { busy ->
            assertThat(ListenPorts.bindable("127.0.0.1")(busy.localPort)).isFalse()
        }
    }
}
