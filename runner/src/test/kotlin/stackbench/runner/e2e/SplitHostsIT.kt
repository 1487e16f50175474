package stackbench.runner.e2e

import stackbench.runner.testing.Background
import stackbench.runner.testing.RunnerCommand
import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import org.junit.jupiter.api.parallel.ResourceAccessMode
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.TestJvm
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.host.NamespaceMachines
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * A scenario with its app in a namespace host and its k6 load split over two "machines" reached over ssh (two
 * namespaces with an sshd each, [NamespaceMachines]): k6 and the script copied there, started paused, resumed
 * together, every request's sample streamed back and merged; the merged count is the sum of the parts, and no
 * namespace, remote folder or process is left.
 *
 * By default a small scenario on Tomcat, on JDK 17 (the app's `jdk:`: the JDK axis, end to end). `-Dstackbench.splitSuite=suites/servers-scenario-hosts.yaml` runs that suite
 * instead (its `load1.example`, `load2.example` and key paths replaced by the namespace machines'), with
 * `-Dstackbench.splitArgs="--scale 0.5"` and `-Dstackbench.splitOut=<folder>` to keep its results.
 *
 * The app's namespace hangs off the run's bridge and the machines off the fixture's: traffic between them goes
 * through this machine's routing, so the test turns IPv4 forwarding on for its length and restores it after.
 */
@Background
@ResourceLock(SharedMachine.LANE_2)
@ResourceLock(SharedMachine.NAMESPACES, mode = ResourceAccessMode.READ_WRITE)
class SplitHostsIT {
    private val home = Path.of(System.getProperty("stackbench.home"))
    private val forwarding = Path.of("/proc/sys/net/ipv4/ip_forward")

    private val smallSuite = """
        name: split-hosts-it
        apps: [{name: tc, stack: tomcat, boot: "3.5", jdk: 17, jvm-args: [${TestJvm.C1_ONLY}]}]
        profile: {cpus: 1, memory: 512MiB, start-cpus: all}
        endpoints: [{kind: todo, method: [GET, POST]}]
        hosts:
          - {name: server, kind: netns}
          - {name: load1, kind: ssh, address: load1.example, key: ~/.ssh/stackbench, known-hosts: ~/.ssh/stackbench_known_hosts}
          - {name: load2, kind: ssh, address: load2.example, key: ~/.ssh/stackbench, known-hosts: ~/.ssh/stackbench_known_hosts}
        placement: {app: server, load: [load1, load2]}
        load:
          driver: k6
          model: scenario
          timeout: 5s
          scenario: {name: todo, users: [{duration: 3s, target: 20}, {duration: 5s, target: 20}], steps: [POST /todo, GET /todo], think: 50ms..100ms}
        repetitions: 1
    """.trimIndent()

    @Test
    fun `a scenario split over two ssh load machines merges every request, and leaves nothing behind`(@TempDir dir: Path) {
        Needs.that(NamespaceMachines.available(), "namespaces need root and iproute2")
        Needs.that(Files.isExecutable(Path.of("/usr/sbin/sshd")), "openssh-server is not installed")
        Needs.that(Files.isExecutable(home.resolve(".tools/bin/k6")), "k6 is not installed in .tools/bin")
        Needs.that(stackbench.runner.jdk.InstalledJdks.find(home).any { it.release.feature == 17 }, "no JDK 17 is installed (apt-get install openjdk-17-jdk-headless)")
        val suiteFile = System.getProperty("stackbench.splitSuite")?.let { home.resolve(it) }
        val out = System.getProperty("stackbench.splitOut")?.let { Path.of(it) } ?: dir.resolve("results")
        val args = System.getProperty("stackbench.splitArgs")?.split(' ')?.filter { it.isNotBlank() } ?: emptyList()
        val before = Files.readString(forwarding).trim()
        Files.writeString(forwarding, "1")
        try {
            NamespaceMachines(listOf("load1", "load2"), Files.createDirectories(dir.resolve("machines"))).use { machines ->
                val text = (suiteFile?.let { Files.readString(it) } ?: smallSuite)
                    .replace("load1.example", machines.address("load1"))
                    .replace("load2.example", machines.address("load2"))
                    .replace("~/.ssh/stackbench_known_hosts", machines.knownHosts.toString())
                    .replace("~/.ssh/stackbench", machines.clientKey.toString())
                val suite = dir.resolve("split-hosts.yaml").also { Files.writeString(it, text) }
                val console = dir.resolve("console.txt")
                val process = ProcessBuilder(RunnerCommand.of(listOf("run", suite.toString(),
                    "--out", out.toString(), "--no-install") + args))
                    .redirectErrorStream(true).redirectOutput(console.toFile()).start()
                assertThat(process.waitFor(if (suiteFile == null) 240L else 3_600L, TimeUnit.SECONDS)).`as`("the run finished in time").isTrue()
                assertThat(process.exitValue()).`as`(Files.readString(console)).isZero()

                val result = ResultsStore.read(out)
                assertThat(result.run.status).isEqualTo(RunStatus.COMPLETE)
                assertThat(result.environment.hosts.map { it.name to it.kind }).contains("server" to "netns", "load1" to "ssh", "load2" to "ssh")
                for (cell in result.cells) {
                    assertThat(cell.status).`as`(cell.reason ?: "").isEqualTo(CellStatus.OK)
                    val m = cell.window.measured!!
                    val split = Regex("""split over 2 k6 instances \(execution segments 0,1/2,1\) on load1, load2: (\d+) \+ (\d+) = (\d+) requests""")
                        .find(m.notes.joinToString("\n"))
                    assertThat(split).`as`(m.notes.joinToString("\n")).isNotNull()
                    val (a, b, merged) = split!!.groupValues.drop(1).map { it.toLong() }
                    println("split-hosts: ${cell.key}: $a + $b = $merged requests, ${"%.1f".format(m.throughput)} req/s, p50 ${m.latency.p50} ms, p99 ${m.latency.p99} ms, " +
                        "errors ${m.errorCount}, dropped ${m.dropped}")
                    assertThat(a).isPositive()
                    assertThat(b).isPositive()
                    assertThat(a + b).isEqualTo(merged)
                    assertThat(merged).isEqualTo(m.responses + m.errorCount)
                    assertThat(m.statusCodes.keys).contains("200", "201")
                    if (suiteFile == null) {
                        // the small suite's app names JDK 17 (the JDK axis): the JVM in the namespace host said it runs 17
                        val runtime = cell.system.runtime!!
                        println("split-hosts: ${cell.key}: runtime $runtime")
                        assertThat(runtime.requested).isEqualTo("17")
                        assertThat(runtime.fromJvm).isTrue()
                        assertThat(runtime.feature).isEqualTo(17)
                        assertThat(runtime.vmArgs).contains("-XX:ActiveProcessorCount=1")
                    }
                }
                // the run's namespace, and every k6 and its folder on the machines, are gone
                val namespaces = ProcessBuilder("ip", "netns", "list").start().inputStream.bufferedReader().readText().lines().filter { it.startsWith("sb${process.pid()}-") }
                assertThat(namespaces).`as`("namespaces left by the run").isEmpty()
                // the namespace machines share this machine's filesystem and process table: one look covers both
                val remoteDir = "/tmp/stackbench-sb${process.pid()}"
                fun left(): List<String> = (if (Files.exists(Path.of(remoteDir))) listOf(remoteDir) else emptyList()) +
                    ProcessHandle.allProcesses().filter { p -> p.info().commandLine().map { it.contains(remoteDir) }.orElse(false) }
                        .map { p -> "${p.pid()} ${p.info().commandLine().orElse("")}" }.toList()
                // an ssh session's last processes may take a moment to go after the runner has exited
                val until = System.nanoTime() + 10_000_000_000L
                while (left().isNotEmpty() && System.nanoTime() < until) Thread.sleep(200)
                assertThat(left()).`as`("what the run left on the load machines").isEmpty()
            }
        } finally {
            Files.writeString(forwarding, before)
        }
    }
}
