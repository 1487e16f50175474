package stackbench.runner.host

import stackbench.runner.testing.Background
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import org.junit.jupiter.api.parallel.ResourceAccessMode
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.catalog.DownstreamJar
import stackbench.runner.suite.DownstreamConfig
import stackbench.runner.sut.DownstreamLauncher
import stackbench.runner.sut.Http
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/** The downstream service placed on an ssh host (an sshd in a namespace): copied there, started, reached at the host's address, stopped. */
@Background
@ResourceLock(SharedMachine.LANE_2)
@ResourceLock(SharedMachine.NAMESPACES, mode = ResourceAccessMode.READ_WRITE)
class SshDownstreamIT {
    private val home = Path.of(System.getProperty("stackbench.home"))

    @Test
    fun `the downstream service runs on an ssh host and answers at its address`(@TempDir dir: Path) {
        Needs.that(NamespaceMachines.available() && Files.isExecutable(Path.of("/usr/sbin/sshd")), "needs root, ip netns and openssh-server")
        Needs.that(Files.isRegularFile(home.resolve(DownstreamJar.PATH)), "the downstream service is not built")
        val registry = ProcessRegistry()
        NamespaceMachines(listOf("far"), dir).use { machines ->
            val host = SshHost.open(machines.ssh("far"), registry, "sbds${ProcessHandle.current().pid()}", machines.knownHosts)
            try {
                val http = Http()
                val java = Path.of(System.getProperty("java.home"), "bin", "java")
                val downstream = try {
                    DownstreamLauncher(host, java, home, http).start(DownstreamConfig(null), emptyList(), dir.resolve("downstream.log"), dir)
                } catch (e: stackbench.runner.sut.AppStartException) {
                    throw AssertionError("${e.message}: ${e.logTail.joinToString("\n")}", e)
                }
                assertThat(downstream.url.host).isEqualTo(machines.address("far"))
                assertThat(http.statusOf(downstream.url.resolve("/health"))).isEqualTo(200)
                val pid = host.remotePid(downstream.child)!!
                assertThat(Files.readSymbolicLink(Path.of("/proc/$pid/ns/net"))).isNotEqualTo(Files.readSymbolicLink(Path.of("/proc/self/ns/net")))
                downstream.stop()
                assertThat(ProcessHandle.of(pid).map { it.isAlive }.orElse(false)).isFalse()
                assertThat(http.statusOf(URI("http://${machines.address("far")}:${downstream.url.port}/health"), Duration.ofSeconds(1))).`as`("no answer once stopped").isNull()
            } finally {
                host.close()
            }
            assertThat(Files.exists(Path.of(host.dir))).isFalse()
        }
    }
}
