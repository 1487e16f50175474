package stackbench.runner.e2e

import org.junit.jupiter.api.parallel.Isolated
import stackbench.runner.testing.Foreground
import stackbench.runner.testing.RunnerCommand
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.Needs
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * Latency measurement against answers known in advance, through the whole path: the runner jar, oha, a
 * WebFlux app calling the downstream service. The suites are the ones in suites/, so a person can re-run
 * exactly what this checks (docs/methodology.md).
 */
@Foreground
@Isolated
class KnownTruthIT {
    private val home = Path.of(System.getProperty("stackbench.home"))

    private fun run(suite: String, dir: Path, file: Path = home.resolve("suites/$suite.yaml")): CellResult = runAll(suite, dir, file).single()

    private fun runAll(suite: String, dir: Path, file: Path = home.resolve("suites/$suite.yaml")): List<CellResult> {
        val out = dir.resolve(suite)
        val console = dir.resolve("$suite.txt")
        val process = ProcessBuilder(RunnerCommand.of("run",
            file.toString(), "--out", out.toString(), "--no-install", "--fast-start"))
            .redirectErrorStream(true).redirectOutput(console.toFile()).start()
        assertThat(process.waitFor(300, TimeUnit.SECONDS)).`as`("$suite finished in time").isTrue()
        assertThat(process.exitValue()).`as`(Files.readString(console)).isZero()
        val cells = ResultsStore.read(out).cells
        for (cell in cells) {
            assertThat(cell.status).`as`(cell.reason ?: "").isEqualTo(CellStatus.OK)
            assertThat(cell.window.measured!!.errorCount).isZero()
            println("$suite: ${cell.window.measured!!.latency} (${cell.window.measured!!.responses} answers, ${cell.window.measured!!.model} model)")
        }
        return cells
    }

    private fun ohaMissing() = !Files.isExecutable(home.resolve(".tools/bin/oha")) && !Files.isExecutable(Path.of("/usr/bin/oha"))

    @Test
    fun `a stall of 500 ms one second in five - the open model finds the true p99, the closed model hides it`(@TempDir dir: Path) {
        Needs.that(!ohaMissing(), "oha is not installed")
        val truthMs = 500.0 + 10.0 // the hold plus the delay asked for
        val open = run("known-truth-stall", dir).window.measured!!
        assertThat(open.latencyCorrected).isTrue()
        assertThat(open.latency.p99!!).`as`("open-model p99 against the truth of $truthMs ms").isCloseTo(truthMs, within(truthMs * 0.10))
        // a fifth of the requests were held: p90 is in the held group too, p50 is not
        assertThat(open.latency.p90!!).isGreaterThan(truthMs * 0.9)
        assertThat(open.latency.p50!!).isLessThan(50.0)

        val closed = run("known-truth-stall-closed", dir).window.measured!!
        assertThat(closed.latencyCorrected).isFalse()
        // one connection waits out each stall, so only two requests a stall are slow, at most 6 in a window that touches
        // three stalls, where the open model held a fifth of its requests. The closed suite's call waits 2 ms, so that
        // its round trip is quick and the window holds more than 600 answers: then 1 % of them is more than are held,
        // and the closed model's p99 and p95 both read the fast path. (At 10 ms and C1's path the window held 453
        // answers, and p99 landed on a held answer or not by how many stalls the window touched.)
        val closedTruthMs = 500.0 + 2.0
        assertThat(closed.responses).`as`("answers in the closed window, for 1 percent of them to outnumber the 6 held").isGreaterThan(600)
        assertThat(closed.latency.p99!!).`as`("closed-model p99").isLessThan(closedTruthMs / 2)
        val p95 = closed.spectrum.single { it.percentile == 95.0 }.ms
        assertThat(p95).`as`("closed-model p95").isLessThan(closedTruthMs / 2)
        assertThat(closed.latency.max!!).`as`("the closed model still saw the stall once").isGreaterThan(closedTruthMs * 0.9)
    }

    @Test
    fun `a fixed 100 ms downstream delay measures a p50 within 2 percent of the delay plus the path's own cost`(@TempDir dir: Path) {
        Needs.that(!ohaMissing(), "oha is not installed")
        // the path (WebFlux + WebClient + the downstream on loopback) adds 1-3 ms of its own with C2 (p50 101.4, 102.6
        // and 103.1 ms in three CI runs), 3-4.5 ms with the C1 alone that the suite runs (103.36 and 104.36 ms on the AMD
        // EPYC machines): the same run measures it at a 1 ms delay, and the truth for 100 ms is 99 ms more than that
        val cells = runAll("known-truth-delay", dir).associateBy { it.endpoint.params["delay"]!!.toDouble() }
        val path = cells.getValue(1.0).window.measured!!
        val m = cells.getValue(100.0).window.measured!!
        val truth = 99.0 + path.latency.p50!!
        println("known-truth-delay: p50 ${m.latency.p50} ms against ${truth} ms (the 1 ms call's p50 ${path.latency.p50} ms + 99)")
        assertThat(m.latency.p50!!).`as`("p50 against the delay plus the path's own cost").isCloseTo(truth, within(truth * 0.02))
        // an offset that both cells share (a driver adding a constant) passes the check above: this one bounds it, at the
        // slowest path measured with C1 (4.36 ms at 200 req/s) and a margin for a busier machine
        assertThat(m.latency.p50!!).`as`("p50 against the delay alone").isCloseTo(100.0, within(7.0))
        assertThat(m.latency.min!!).`as`("nothing is faster than the delay").isGreaterThanOrEqualTo(100.0)
    }

    @Test
    fun `an extra cost that falls to nothing 15 s into the load - warm-up ends there, then the steady rate`(@TempDir dir: Path) {
        Needs.that(!ohaMissing(), "oha is not installed")
        val cell = run("known-truth-warmup", dir)
        // /info is read before the load, when the truth's clock has not started: its end is read from the app's log
        val warmup = cell.warmup.record!!
        val steadyAt = warmup.steadyAtEpochMs!!
        val endsAt = truthEnd(dir.resolve("known-truth-warmup"), cell)
        println("known-truth-warmup: steady state from ${(steadyAt - endsAt) / 1000.0} s after the truth's end; warm-up ended by ${warmup.endedBy} " +
            "after ${warmup.seconds} s; ${cell.window.measured!!.throughput} req/s; flags ${cell.flags.map { it.code }}; slices ${warmup.slices.map { it.rate.toInt() }}")
        // the lab places a level's start on a slice's start (1 s slices), and admits a leading slice only within 5 % of
        // the level: the first whole slice after the truth's end starts up to 1 s after it, and one disturbed slice (a CI
        // run read 889 req/s there against a level of 980) moves the start one slice on. So: from a slice before the end
        // to two slices after it
        assertThat((steadyAt - endsAt).toDouble()).`as`("time to steady state against the truth, ms").isBetween(-1000.0, 2000.0)
        // 100 connections, 100 ms each: 1,000 req/s, less the path's own cost: a millisecond or two a request on a quiet
        // machine, 11 ms on a CI machine that the pace canary read slow (892 req/s at a mean round trip of 111.2 ms). So
        // the window's own mean round trip is held to the truth (the warm-up's extra cost, 150 ms on average over its
        // 15 s, shows in any window that overlaps it), and the rate to the closed model's law: 100 connections over that
        // mean, less at most one round trip a connection in the 10 s window
        val m = cell.window.measured!!
        assertThat(m.latency.min!!).`as`("nothing is faster than the 100 ms wait").isGreaterThanOrEqualTo(100.0)
        assertThat(m.latency.mean!!).`as`("the window's mean round trip against the 100 ms wait").isCloseTo(100.0, within(100.0 * 0.15))
        val trips = 10.0 / (m.latency.mean!! / 1000.0)
        assertThat(m.throughput).`as`("100 connections over the mean round trip ${m.latency.mean} ms")
            .isBetween(100 * (trips - 1) / 10.0 * 0.99, 100 * trips / 10.0 * 1.01)
    }

    @Test
    fun `a sleep in a class initializer pins every virtual thread - a pin per answer at the sleep's length, and one carrier's 1 ÷ (pin + CPU) answers a second`(@TempDir dir: Path) {
        Needs.that(!ohaMissing(), "oha is not installed")
        val cell = run("known-truth-pinning", dir)
        val m = cell.window.measured!!
        val pinned = cell.probes["pinned"]!!
        val events = pinned.figures["events"]!!
        val totalMs = pinned.figures["totalMs"]!!
        val frames: List<String> = pinned.details!!["frames"].values().map { it["frame"].asString() }
        println("known-truth-pinning: ${m.throughput} req/s, ${m.responses} answers, $events pins (${pinned.figures["perThousandRequests"]} per 1,000 answers), " +
            "${totalMs / events} ms each on average, longest ${pinned.figures["maxMs"]} ms; frames $frames; reasons ${pinned.details!!["reasons"]}; flags ${cell.flags.map { it.code }}")
        // every answer pinned once: the pins that began in the window against its answers, less the few that straddle its edges
        assertThat(events).`as`("pins against the window's ${m.responses} answers").isCloseTo(m.responses.toDouble(), within(m.responses * 0.10 + 2))
        assertThat(totalMs / events).`as`("the mean pin against the 20 ms sleep").isCloseTo(20.5, within(1.5))
        assertThat(frames.first()).`as`("the frame that pinned").startsWith("stackbench.apps.endpoints.io.PinningTruth")
        assertThat(cell.flags.map { it.code }).contains("pinned")
        // one carrier (the app has one CPU) serves one request at a time, each holding it for its pin and for its own
        // CPU: 1 ÷ (pin + CPU per answer), under 1 ÷ 20 ms = 50 req/s, where the 10 connections would give 500 unpinned
        val cpuMs = cell.window.jvm!!.cpuMsPerRequest!!
        val carrier = 1000.0 / (totalMs / events + cpuMs)
        println("known-truth-pinning: one carrier's 1 ÷ (${totalMs / events} + $cpuMs ms) = $carrier req/s against ${m.throughput}")
        // the law is a floor more than a centre: its CPU per answer is the whole process's, and Tomcat's platform threads
        // (poller, acceptor), the GC and the JIT run on the app's one CPU while the carrier sits parked in a pin, so the
        // carrier is held for less than pin + CPU. Measured +3.5, +4.9, +5.9 and +8.3 % over it in four runs: 10 % below,
        // 15 % above. Unpinned, 10 connections would give 500 req/s, which the bound below still fails
        assertThat(m.throughput).`as`("one carrier's 1 ÷ (pin + CPU per answer)").isBetween(carrier * 0.90, carrier * 1.15)
        assertThat(m.throughput).`as`("under one carrier's 1 ÷ 20 ms").isLessThan(50.0 * 1.02)
    }

    /** When the app's extra cost ended, as the app logged it when its clock started (epoch ms). */
    private fun truthEnd(out: Path, cell: CellResult): Long {
        val log = Files.readAllLines(out.resolve(cell.files["app"]!!))
        val line = log.lastOrNull { it.contains("warm-up truth clock started") }
            ?: error("the app logged no start of its warm-up truth clock")
        return Regex("ends at epoch ms (\\d+)").find(line)!!.groupValues[1].toLong()
    }

    @Test
    fun `a fixed 500 ms wait at 20 connections - a window of 6 round trips is flagged, one of 28 counts 20 connections over the mean round trip`(@TempDir dir: Path) {
        Needs.that(!ohaMissing(), "oha is not installed")
        val short = run("known-truth-window", dir)
        assertThat(short.flags.map { it.code }).contains("few-round-trips")
        assertThat(short.window.shape!!.roundTripsPerConnection!!).isLessThan(20.0)

        // the window counts from the load's start, and a connection's answers in it are whole round trips: over a
        // window of w seconds each connection completes between w/r - 1 and w/r of them, r its mean round trip as
        // measured (Little's law). Against the nominal 0.5 s alone a machine 2 % slower fails: CI read r = 510.9 ms,
        // 46 round trips a connection, 38.3 req/s, where the ideal is 39.2. 14 s is 28 round trips a connection, past the
        // rule's 20 also at that CI's mean round trip of 537 ms (26); 24 s took 10 s more and checked nothing more
        val seconds = 14.0
        val longer = dir.resolve("known-truth-window-14s.yaml")
        Files.writeString(longer, Files.readString(home.resolve("suites/known-truth-window.yaml")).replace("duration: 3s", "duration: 14s"))
        val adequate = run("known-truth-window-14s", dir, longer)
        assertThat(adequate.flags.map { it.code }).doesNotContain("few-round-trips")
        val m = adequate.window.measured!!
        assertThat(m.latency.min!!).`as`("nothing is faster than the 500 ms wait").isGreaterThanOrEqualTo(500.0)
        // the 20 connections start together and wait alike, so their requests come back to the app in waves of 20, which
        // its one CPU serves one after another: the median answer waits for about half a wave's CPU, the last for all of
        // it. So the median lies between the wait and the wait plus the whole wave's CPU (the window's CPU per answer,
        // measured), and 2 % more. A slow CI host read a median of 527.2 ms (min 501.1, max 578.6): 2-4 ms of CPU an
        // answer on C1. Little's law below takes the mean, stalls and all
        val cpuMs = adequate.window.jvm?.cpuMsPerRequest ?: adequate.ceiling.idle?.cpuMsPerRequest
        assertThat(cpuMs).`as`("the window's CPU per answer").isNotNull()
        println("known-truth-window-14s: p50 ${m.latency.p50} ms, min ${m.latency.min}, max ${m.latency.max}; CPU per answer $cpuMs ms: a wave of 20 is ${20 * cpuMs!!} ms")
        assertThat(m.latency.p50!!).`as`("the median round trip against the 500 ms wait and a wave of 20 answers' CPU ($cpuMs ms each)")
            .isBetween(500.0, (500.0 + 20 * cpuMs) * 1.02)
        val tripsPerConnection = seconds / (m.latency.mean!! / 1000.0)
        val fewest = 20 * (tripsPerConnection - 1) / seconds
        val most = 20 * tripsPerConnection / seconds
        println("known-truth-window-14s: ${m.throughput} req/s against ${fewest}-${most} (20 connections, mean round trip ${m.latency.mean} ms)")
        assertThat(m.throughput).`as`("20 connections ÷ the mean round trip, less at most one round trip a connection")
            .isBetween(fewest * 0.98, most * 1.02)
    }
}
