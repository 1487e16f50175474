package stackbench.runner.host

import stackbench.runner.testing.Foreground
import org.junit.jupiter.api.parallel.ResourceAccessMode
import org.junit.jupiter.api.parallel.ResourceLock
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.SharedMachine
import stackbench.runner.testing.Needs
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.isolation.Confinement
import stackbench.runner.suite.HostPlacement
import stackbench.runner.suite.HostSpec
import stackbench.runner.suite.HostsSpec
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/** Namespace hosts made for real: a process in one answers on its address from this namespace; nothing is left after. */
@Foreground
@ResourceLock(SharedMachine.NAMESPACES, mode = ResourceAccessMode.READ_WRITE)
class NetnsHostIT {
    private val registry = ProcessRegistry()
    private val tag = "sb${ProcessHandle.current().pid()}"
    private val java = Path.of(System.getProperty("java.home"), "bin", "java").toString()
    // the lab's own client: a java.net.http client made before it would fix the JDK's restricted headers without Connection
    private val http = stackbench.runner.sut.Http()

    @BeforeEach
    fun root() = Needs.that(NamespaceMachines.available(), "needs root and ip netns")

    /** A one-file HTTP server (java's source launcher): answers "hello from <address>" on ADDRESS:PORT. */
    private fun server(dir: Path): Path = dir.resolve("Hello.java").also {
        Files.writeString(it, """
            import com.sun.net.httpserver.HttpServer;
            import java.net.InetSocketAddress;
            public class Hello {
                public static void main(String[] a) throws Exception {
                    HttpServer s = HttpServer.create(new InetSocketAddress(a[0], Integer.parseInt(a[1])), 100);
                    s.createContext("/", x -> { byte[] b = ("hello from " + a[0]).getBytes(); x.sendResponseHeaders(200, b.length); x.getResponseBody().write(b); x.close(); });
                    s.start();
                    System.out.println("listening");
                }
            }
        """.trimIndent())
    }

    private fun get(url: String): String? = runCatching { http.call(URI(url), timeout = Duration.ofSeconds(2)).body }.getOrNull()

    private fun awaitAnswer(url: String): String {
        val deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos()
        while (System.nanoTime() < deadline) {
            get(url)?.let { return it }
            Thread.sleep(100)
        }
        error("no answer from $url")
    }

    private fun netnsOnly(vararg hosts: HostSpec.Netns) =
        HostsSpec(listOf(HostSpec.Local("local")) + hosts, HostPlacement(app = hosts[0].name, load = listOf("local")))

    @Test
    fun `a process started in a namespace answers on its address from the root namespace, and close leaves nothing`(@TempDir dir: Path) {
        var pid = 0L
        LabHosts.open(netnsOnly(HostSpec.Netns("server")), registry, tag).use { hosts ->
            val host = hosts.roles.app
            assertThat(host.address).startsWith("10.77.").isNotEqualTo("127.0.0.1")
            assertThat(host.bindAddress).isEqualTo(host.address)
            assertThat(hosts.roles.driver.address).isEqualTo(hosts.network!!.plan.gateway)
            val port = host.freePort()
            val child = host.launch(LaunchSpec("app", listOf(java, server(dir).toString(), host.bindAddress, "$port"), dir.resolve("app.log"), confinement = Confinement.none()))
            pid = child.pid
            assertThat(awaitAnswer("http://${host.address}:$port/")).isEqualTo("hello from ${host.address}")
            // the process lives in the namespace: its network namespace differs from this one's
            assertThat(Files.readSymbolicLink(Path.of("/proc/$pid/ns/net"))).isNotEqualTo(Files.readSymbolicLink(Path.of("/proc/self/ns/net")))
            child.stop()
        }
        assertThat(NamespaceMachines.leftoversOf(tag)).isEmpty()
        assertThat(ProcessHandle.of(pid).map { it.isAlive }.orElse(false)).isFalse()
    }

    @Test
    fun `an exception in the middle of the run still removes the namespaces, links and bridge`(@TempDir dir: Path) {
        var pid = 0L
        assertThatThrownBy {
            LabHosts.open(netnsOnly(HostSpec.Netns("server"), HostSpec.Netns("other", rateBitsPerSecond = 100_000_000)), registry, tag).use { hosts ->
                val host = hosts.roles.app
                val port = host.freePort()
                pid = host.launch(LaunchSpec("app", listOf(java, server(dir).toString(), host.bindAddress, "$port"), dir.resolve("app.log"))).pid
                assertThat(NamespaceMachines.leftoversOf(tag)).contains("$tag-server", "$tag-other", "${tag}br", "${tag}h0", "${tag}h1")
                error("a cell failed")
            }
        }.hasMessage("a cell failed")
        registry.killAll() // as the suite runner's shutdown does for a run that failed
        assertThat(NamespaceMachines.leftoversOf(tag)).isEmpty()
        assertThat(ProcessHandle.of(pid).map { it.isAlive }.orElse(false)).isFalse()
    }

    @Test
    fun `without netem the round trip is a relay's - the service binds loopback, the relay adds the rtt on the namespace address`(@TempDir dir: Path) {
        LabHosts.open(netnsOnly(HostSpec.Netns("server", Duration.ofMillis(20))), registry, tag).use { hosts ->
            val host = hosts.roles.app as NetnsHost
            assumeTrue(host.relayed, "this kernel has netem: the relay is not used")
            assertThat(host.rttMethod).isEqualTo("relay")
            assertThat(host.bindAddress).isEqualTo("127.0.0.1")
            val port = host.freePort()
            val child = host.launch(LaunchSpec("app", listOf(java, server(dir).toString(), host.bindAddress, "$port"), dir.resolve("app.log")))
            host.expose(port, delayed = true, listOf(0), dir.resolve("relay.log")).use { relay ->
                assertThat(awaitAnswer("http://${host.address}:$port/")).isEqualTo("hello from 127.0.0.1")
                val times = (1..20).map {
                    val t0 = System.nanoTime()
                    assertThat(get("http://${host.address}:$port/")).isEqualTo("hello from 127.0.0.1")
                    (System.nanoTime() - t0) / 1e6
                }.sorted()
                println("through the relay (rtt 20 ms): median ${times[10]} ms, min ${times.first()} ms")
                // the relay holds the request and the answer 10 ms each: never less than the round trip, and not two of them.
                // The fastest of the 20 is read, not the median: a few ms above the rtt on a quiet machine (min 26-27 ms,
                // median 29-31 in CI), while a busy host's stalls move the median (44 ms once in CI, min 32) far more
                assertThat(times.first()).isGreaterThanOrEqualTo(20.0).isLessThan(40.0)
                assertThat(relay.cpuMs()).isNotNull().isPositive()
            }
            child.stop()
            assertThat(host.stoppedRelaysCpuMs()).isPositive()
        }
        assertThat(NamespaceMachines.leftoversOf(tag)).isEmpty()
    }

    @Test
    fun `without netem an rtt on a host that runs no service is refused, and nothing is left`() {
        val spec = HostsSpec(listOf(HostSpec.Local("local"), HostSpec.Netns("client", Duration.ofMillis(20))), HostPlacement(load = listOf("client")))
        val error = runCatching { LabHosts.open(spec, registry, tag).close() }.exceptionOrNull()
        assumeTrue(error != null, "this kernel has netem: the rtt applies to the load's link")
        assertThat(error!!.message).isEqualTo("this kernel has no netem, so a round trip (rtt) is emulated by a relay in front of the services on a host; " +
            "client runs no service (no app, no downstream), so its rtt would add nothing: put the rtt on the app's host")
        assertThat(NamespaceMachines.leftoversOf(tag)).isEmpty()
    }

    @Test
    fun `a killed runner's watchdog removes its namespaces and links`(@TempDir dir: Path) {
        val plan = NetworkPlan.of("sb999999", listOf(HostSpec.Netns("orphan")), LabNetwork.takenSubnets())
        LabNetwork.open(plan) // not closed: as a runner killed with SIGKILL leaves it
        assertThat(NamespaceMachines.leftoversOf("sb999999")).isNotEmpty()
        val builder = ProcessBuilder(Watchdog.command(emptyList())).redirectErrorStream(true).redirectOutput(dir.resolve("watchdog.log").toFile())
        builder.environment()[Watchdog.NET_TAG] = "sb999999"
        val watchdog = builder.start()
        watchdog.outputStream.close() // the runner's end: the pipe closes
        assertThat(watchdog.waitFor(20, TimeUnit.SECONDS)).isTrue()
        assertThat(NamespaceMachines.leftoversOf("sb999999")).isEmpty()
    }

    @Test
    fun `a later run's sweep removes what a dead runner left, and keeps a live runner's`() {
        val deadTag = "sb999998"
        LabNetwork.open(NetworkPlan.of(deadTag, listOf(HostSpec.Netns("orphan")), LabNetwork.takenSubnets()))
        LabHosts.open(netnsOnly(HostSpec.Netns("live")), registry, tag).use {
            val swept = LabNetwork.sweep()
            assertThat(swept.namespaces).contains("$deadTag-orphan").doesNotContain("$tag-live")
            assertThat(swept.links).contains("${deadTag}br")
            assertThat(NamespaceMachines.leftoversOf(deadTag)).isEmpty()
            assertThat(NamespaceMachines.leftoversOf(tag)).isNotEmpty()
        }
    }
}
