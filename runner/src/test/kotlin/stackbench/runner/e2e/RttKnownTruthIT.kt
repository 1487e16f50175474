package stackbench.runner.e2e

import org.junit.jupiter.api.parallel.Isolated
import stackbench.runner.testing.Foreground
import org.junit.jupiter.api.parallel.ResourceAccessMode
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.RunnerCommand
import stackbench.runner.testing.SharedMachine
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.Needs
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.results.CellStatus
import stackbench.runner.host.relay.Lateness
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * The emulated round trip, known in advance: Tomcat's /noop in a namespace host, at 2 connections, with
 * `rtt: 20ms` (suites/known-truth-rtt.yaml) and with `rtt: 40ms`: the p50 grows by 20 ms ± 2 ms (plus what the relay's
 * own lateness grew, measured), and every
 * namespace and relay is gone after each run.
 *
 * Both runs go through the emulated link, so both leave the CPUs idle between a request and its answer: what an
 * idle CPU costs to wake (on a busy virtual machine's host, milliseconds) is in both and cancels. Against a run
 * without the rtt, whose CPUs never idle, it did not: a CI machine read +27.05 ms for 20 (docs/hosts.md). The
 * relay's own lateness (how late it let each chunk go) is printed from its log, so a failure says which it was.
 */
@Foreground
@Isolated
@ResourceLock(SharedMachine.NAMESPACES, mode = ResourceAccessMode.READ_WRITE)
class RttKnownTruthIT {
    private val home = Path.of(System.getProperty("stackbench.home"))

    private fun run(name: String, text: String, dir: Path): RunResult {
        val file = dir.resolve("$name.yaml").also { Files.writeString(it, text) }
        val out = dir.resolve(name)
        val console = dir.resolve("$name.txt")
        val process = ProcessBuilder(RunnerCommand.of("run", file.toString(), "--out", out.toString(), "--no-install", "--fast-start"))
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
        assertThat(suite).contains(RTT_20)
        val near = run("rtt-20ms", suite, dir)
        val far = run("rtt-40ms", suite.replace(RTT_20, "{name: server, kind: netns, rtt: 40ms}"), dir)
        val base = near.cells.single().window.measured!!.latency.p50!!
        val slow = far.cells.single().window.measured!!.latency.p50!!
        val host = far.environment.hosts.single { it.name == "server" }
        val late = listOf("rtt-20ms", "rtt-40ms").map { lateness(dir.resolve(it)) }
        println("known-truth-rtt: p50 ${"%.2f".format(base)} ms at rtt 20 ms, ${"%.2f".format(slow)} ms at 40 ms (by ${host.rttMethod}): " +
            "+${"%.2f".format(slow - base)} ms; relay CPU over the window ${relayCpu(near)} and ${relayCpu(far)} ms; " +
            "relay lateness ${late.joinToString(" and ")}")
        assertThat(host.roles).containsExactly("app")
        assertThat(near.environment.hosts.single { it.name == "server" }.rttMs).isEqualTo(20.0)
        assertThat(host.rttMs).isEqualTo(40.0)
        // the relay's own lateness is part of the round trip it imposed: a round trip is at least two chunks (one each
        // way), each late by about the run's p50 lateness, so the truth is 20 ms plus twice the p50's growth. A CI run
        // read +22.15 ms with the relay's p50 at 247 and 467 us; another +23.24 ms at 588 us (docs/testing.md)
        val relayGrowth = if (late.all { it != null }) 2 * (late[1]!!.p50Us - late[0]!!.p50Us) / 1000.0 else 0.0
        val truth = 20.0 + relayGrowth
        assertThat(slow - base).`as`("p50 growth from rtt 20 ms to 40 ms against $truth ms (the relay's own growth ${"%.2f".format(relayGrowth)} ms; lateness $late)")
            .isCloseTo(truth, within(2.0))
        if (host.rttMethod == "relay") {
            assertThat(relayCpu(far)).`as`("the relay probe's CPU over the window").isNotNull().isPositive()
            assertThat(late).allSatisfy { assertThat(it).`as`("every relayed run logs its lateness").isNotNull() }
        }
    }

    /** The relay probe's CPU time of a run's only cell over its window, ms. */
    private fun relayCpu(run: RunResult): Double? = run.cells.single().probes["relay"]?.figures?.get("cpuMs")

    /** The lateness line of the delayed relay (the one the load went through) of a run's only cell. */
    private fun lateness(out: Path): Lateness? = Files.walk(out).use { files ->
        files.filter { it.fileName.toString() == "relay-http.log" }.toList()
    }.singleOrNull()?.let { Lateness.parse(Files.readString(it)) }

    private companion object {
        const val RTT_20 = "{name: server, kind: netns, rtt: 20ms}"
    }
}
