package stackbench.runner.e2e

import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.Needs
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * The emulated round trip, known in advance: Tomcat's /noop in a namespace host, at 2 connections, with and
 * without `rtt: 20ms` (suites/known-truth-rtt.yaml): the p50 grows by 20 ms ± 2 ms, and every namespace and
 * relay is gone after each run.
 */
class RttKnownTruthIT {
    private val home = Path.of(System.getProperty("stackbench.home"))
    private val jar = Path.of(System.getProperty("stackbench.runner.jar"))
    private val java = Path.of(System.getProperty("java.home"), "bin", "java")

    private fun run(name: String, text: String, dir: Path): RunResult {
        val file = dir.resolve("$name.yaml").also { Files.writeString(it, text) }
        val out = dir.resolve(name)
        val console = dir.resolve("$name.txt")
        val process = ProcessBuilder(java.toString(), "-Dstackbench.home=$home", "-jar", jar.toString(), "run", file.toString(), "--out", out.toString(), "--no-install", "--fast-start")
            .redirectErrorStream(true).redirectOutput(console.toFile()).start()
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).`as`("$name finished in time").isTrue()
        assertThat(process.exitValue()).`as`(Files.readString(console)).isZero()
        val result = ResultsStore.read(out)
        assertThat(result.cells.single().status).`as`(result.cells.single().reason ?: "").isEqualTo(CellStatus.OK)
        val left = ProcessBuilder("ip", "netns", "list").start().inputStream.bufferedReader().readText().lines().filter { it.startsWith("sb${process.pid()}-") }
        assertThat(left).`as`("namespaces left by the run").isEmpty()
        return result
    }

    @Test
    fun `a 20 ms round trip on the app's host adds 20 ms to the p50`(@TempDir dir: Path) {
        Needs.that(Files.isExecutable(home.resolve(".tools/bin/oha")) || Files.isExecutable(Path.of("/usr/bin/oha")), "oha is not installed")
        Needs.that(ProcessHandle.current().info().user().orElse("") == "root", "namespaces need root")
        val suite = Files.readString(home.resolve("suites/known-truth-rtt.yaml"))
        val plain = run("rtt-none", suite.replace("{name: server, kind: netns, rtt: 20ms}", "{name: server, kind: netns}"), dir)
        val delayed = run("rtt-20ms", suite, dir)
        val base = plain.cells.single().measured!!.latency.p50!!
        val slow = delayed.cells.single().measured!!.latency.p50!!
        val host = delayed.environment.hosts.single { it.name == "server" }
        println("known-truth-rtt: p50 ${"%.2f".format(base)} ms without, ${"%.2f".format(slow)} ms with rtt 20 ms (by ${host.rttMethod}): " +
            "+${"%.2f".format(slow - base)} ms; relay CPU over the window ${delayed.cells.single().relayCpuMs} ms")
        assertThat(host.roles).containsExactly("app")
        assertThat(host.rttMs).isEqualTo(20.0)
        assertThat(plain.environment.hosts.single { it.name == "server" }.rttMethod).isNull()
        assertThat(slow - base).`as`("p50 growth, ms").isCloseTo(20.0, within(2.0))
        if (host.rttMethod == "relay") assertThat(delayed.cells.single().relayCpuMs).isNotNull().isPositive()
    }
}
