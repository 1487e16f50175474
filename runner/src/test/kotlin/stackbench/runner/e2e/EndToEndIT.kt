package stackbench.runner.e2e

import org.junit.jupiter.api.Order
import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import stackbench.runner.testing.RunnerCommand
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * The whole pipeline, as a user runs it: the runner jar in its own process, real apps, real load
 * generators, real cgroups where they can be written. Then: the results files are whole and nothing the
 * run started is still alive.
 */
@Background
@Order(1)
@ResourceLock(SharedMachine.LANE_2)
class EndToEndIT {
    private val home = Path.of(System.getProperty("stackbench.home"))
    private val cpus = Runtime.getRuntime().availableProcessors()

    /** oha runs each cell in a fresh app (`restart: cell`, the default); wrk runs both in one (`restart: app`), so each path is covered. */
    private fun suite(dir: Path, driver: String, duration: String, cells: String, compare: String = ""): Path {
        val pinned = if (cpus >= 2) "cpuset: [${cpus - 1}]," else ""
        val file = dir.resolve("e2e-$driver.yaml")
        Files.writeString(file, """
            name: e2e-$driver
            apps: [{name: tc, stack: tomcat}]
            profile: {cpus: 1, $pinned memory: 512MiB, start-cpus: all}
            endpoints: $cells
            load: {driver: $driver, connections: $CONNECTIONS, warmup: 1s, prime: false, duration: $duration, timeout: 5s}
            repetitions: 1
            restart: ${if (driver == "wrk") "app" else "cell"}
        """.trimIndent() + compare)
        return file
    }

    /** [fastStart]: the apps from their extracted jars with a class-data archive (`--fast-start`); oha's run starts them as a user's run does. */
    private fun start(suite: Path, out: Path, console: Path, fastStart: Boolean, extra: List<String> = emptyList()): Process =
        ProcessBuilder(RunnerCommand.of(listOf("run", suite.toString(), "--out", out.toString(), "--no-install") +
            (if (fastStart) listOf("--fast-start") else emptyList()) + extra))
            .redirectErrorStream(true).redirectOutput(console.toFile()).start()

    private fun toolMissing(driver: String) = listOf(home.resolve(".tools/bin/$driver"), Path.of("/usr/bin/$driver"), Path.of("/usr/local/bin/$driver"))
        .none { Files.isExecutable(it) }

    @ParameterizedTest(name = "through {0}")
    @ValueSource(strings = ["oha", "wrk"])
    fun `a tiny suite runs end to end and leaves whole results and no process`(driver: String, @TempDir dir: Path) {
        Needs.that(!toolMissing(driver), "$driver is not installed")
        val out = dir.resolve("results")
        val console = dir.resolve("console.txt")
        // wrk's run also profiles its windows (run --profile cpu) and compares its two cells' profiles
        val profiled = driver == "wrk"
        val compare = if (profiled) "\ncompare: [{name: cpu vs io, a: tc/cpu-direct-limit10000/c8, b: tc/io-blocking-delay20/c8}]" else ""
        val process = start(suite(dir, driver, "3s", "[{kind: cpu, strategies: [direct], limit: 10000}, {kind: io, strategies: [blocking], delay: 20ms}]", compare),
            out, console, fastStart = driver == "wrk", extra = if (profiled) listOf("--profile", "cpu") else emptyList())
        assertThat(process.waitFor(300, TimeUnit.SECONDS)).`as`("the run finished in time").isTrue()
        val text = Files.readString(console)
        assertThat(process.exitValue()).`as`(text).isZero()
        assertThat(text).contains("results: $out")

        val result = ResultsStore.read(out)
        assertThat(result.run.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(result.environment.drivers.keys).containsExactly(driver)
        assertThat(result.cells).hasSize(2).allSatisfy { c ->
            assertThat(c.status).`as`(c.reason ?: "").isEqualTo(CellStatus.OK)
            assertThat(c.verification!!.ok).isTrue()
            assertThat(c.system.info!!.path("stack").asString()).isEqualTo("tomcat")
            val m = c.window.measured!!
            assertThat(m.driver).isEqualTo(driver)
            assertThat(m.throughput).isPositive()
            assertThat(m.successes).isEqualTo(m.responses)
            assertThat(m.latency.p99).isPositive()
            val r = c.resources.summary!!
            assertThat(r.sampleCount).isGreaterThanOrEqualTo(4)
            assertThat(r.cpuShare).isBetween(0.01, 1.3)
            assertThat(r.threadsMax).isGreaterThan(10)
            assertThat(r.voluntaryCtx).isPositive()
            assertThat(c.timings!!.measuredMs).isGreaterThanOrEqualTo(1900)
            // the app's log is in the folder of the cell that started it
            assertThat(out.resolve(result.cells.first { it.key == (c.appStartedBy ?: c.key) }.folder).resolve("app.log")).isRegularFile()
            assertThat(out.resolve(c.folder).resolve("measured")).isDirectory()
        }
        // a fresh app per cell records its start-up in every cell; one app for both records it in the first, named by the second
        val first = result.cells[0]
        assertThat(first.start.startup!!.toHealthyMs).isPositive()
        assertThat(first.start.startup!!.springStartedSeconds).isPositive()
        assertThat(first.start.startup!!.fastStart).isEqualTo(driver == "wrk")
        if (driver == "wrk") {
            assertThat(result.cells[1].appStartedBy).isEqualTo(first.key)
        } else {
            assertThat(result.cells[1].start.startup!!.toHealthyMs).isPositive()
            assertThat(result.cells[1].appStartedBy).isNull()
        }
        // the I/O cell waits 20 ms a request on 8 connections: at most 400 answers a second
        assertThat(result.cells[1].window.measured!!.throughput).isLessThan(400.0)
        assertThat(result.cells[1].window.measured!!.latency.p50).isGreaterThanOrEqualTo(20.0)
        assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(3)
        // allocation per request in every cell: over the app's own count of the window's exchanges, which must match the load generator's
        assertThat(result.cells).allSatisfy { c ->
            val alloc = c.probes.getValue("alloc")
            println("alloc: ${c.key}: ${alloc.figures}")
            assertThat(alloc.notes).isEmpty()
            assertThat(alloc.figures["bytesPerRequest"]).`as`("heap bytes a request").isNotNull().isBetween(100.0, 5e6)
            // the probe's readings and the window's edges are apart by a moment: at each edge up to one exchange a
            // connection falls on one side only, which is more than 10 % of a window that a busy machine left short
            // (54 answers in one, in the background beside a known truth)
            val responses = c.window.measured!!.responses.toDouble()
            assertThat(alloc.figures["completed"]!!).`as`("the app's exchanges between the probe's readings")
                .isCloseTo(responses, within(maxOf(responses * 0.10, 2.0 * CONNECTIONS)))
        }
        if (profiled) profileChecks(result, out) else assertThat(result.cells).allSatisfy { assertThat(it.probes.keys).containsExactly("alloc") }
        assertNothingLeft(out, process.pid())
    }

    /**
     * The CPU profile of the cell counting primes agrees with what the app itself measured: the share of samples in
     * the work (stacks through `Primes.upTo`) against the app's own work CPU ÷ its process CPU per request, and the
     * share in the JIT's compiler threads against their CPU from /proc; each within 3 points plus three binomial
     * standard errors of the samples. A profile of the wrong process, of the wall clock, or of a window that missed
     * the load fails it.
     */
    private fun profileChecks(result: stackbench.runner.results.RunResult, out: Path) {
        val cpu = result.cells.first { it.endpoint.kind == "cpu" }
        val probe = cpu.probes.getValue("profile")
        assertThat(probe.notes).isEmpty()
        for (role in listOf("jfr", "collapsed", "flameGraph")) assertThat(out.resolve(probe.files.getValue(role))).isRegularFile()
        val stacks = Files.readAllLines(out.resolve(probe.files.getValue("collapsed"))).filter { it.isNotBlank() }
            .map { it.substringBeforeLast(' ') to it.substringAfterLast(' ').toLong() }
        val total = stacks.sumOf { it.second }.toDouble()
        assertThat(total).`as`("samples in a 3 s window").isGreaterThan(100.0)
        fun share(match: (String) -> Boolean) = stacks.filter { match(it.first) }.sumOf { it.second } / total
        val tolerance = { p: Double -> 0.03 + 3 * kotlin.math.sqrt(p * (1 - p) / total) }
        val perRequest = probe.details!!.get("cpuMsPerRequest")?.asDouble()
        assertThat(perRequest).`as`("a CPU profile records the app's CPU per request over its window").isNotNull().isPositive()
        perRequest!!
        val work = cpu.window.jvm!!.workCpuMsPerRequest!! / perRequest
        val profiledWork = share { "Primes.upTo" in it }
        val compilerMs = cpu.window.jvm!!.compilerCpuMs
        println("profile: work ${"%.3f".format(profiledWork)} of samples against ${"%.3f".format(work)} by the app's counter; " +
            "$total samples, ${probe.details!!.get("engine").asString()} (${probe.details!!.get("event").asString()}); compiler ${compilerMs} ms")
        assertThat(profiledWork).`as`("the work's share of the profile against the app's own work CPU").isCloseTo(work, within(tolerance(work)))
        if (compilerMs != null) {
            val jit = compilerMs / (perRequest * cpu.window.measured!!.responses)
            val profiledJit = share { "CompileBroker" in it }
            println("profile: JIT ${"%.3f".format(profiledJit)} of samples against ${"%.3f".format(jit)} by the compiler threads' CPU")
            assertThat(profiledJit).`as`("the JIT's share of the profile against its threads' CPU").isCloseTo(jit, within(tolerance(jit)))
        }
        val where = result.profileComparisons.single()
        assertThat(where.perRequest).isTrue()
        assertThat(where.frames).isNotEmpty()
        assertThat(where.files.values).isNotEmpty().allSatisfy { assertThat(out.resolve(it)).isRegularFile() }
        assertThat(Files.readString(out.resolve("report.html"))).contains("Where the time went")
    }

    @Test
    fun `SIGTERM in the middle of a cell stops it, keeps valid results and leaves no process`(@TempDir dir: Path) {
        Needs.that(!toolMissing("oha"), "oha is not installed")
        val out = dir.resolve("results")
        val console = dir.resolve("console.txt")
        val process = start(suite(dir, "oha", "60s", "[{kind: cpu, strategies: [direct], limit: 1000}]"), out, console, fastStart = true)
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(200)
        while (System.nanoTime() < deadline && !Files.readString(console).contains("measuring")) Thread.sleep(200)
        assertThat(Files.readString(console)).contains("measuring")
        Thread.sleep(1500)
        process.destroy() // SIGTERM
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).`as`("the runner stopped").isTrue()
        val result = ResultsStore.read(out)
        assertThat(result.run.status).isEqualTo(RunStatus.INTERRUPTED)
        assertThat(result.cells.single().status).isEqualTo(CellStatus.INTERRUPTED)
        assertNothingLeft(out, process.pid())
    }

    /**
     * No process whose command line names this run's folder, and no cgroup of its runner's (`sb<pid>-*`), is left. Its
     * own runner's only: other classes' runners run beside this one, and a killed one's groups go a moment later.
     */
    private fun assertNothingLeft(out: Path, runner: Long) {
        Thread.sleep(500)
        val left = ProcessHandle.allProcesses().filter { p ->
            p.info().arguments().map { args -> args.any { it.contains(out.toString()) } }.orElse(false)
        }.map { "${it.pid()} ${it.info().commandLine().orElse("")}" }.toList()
        assertThat(left).isEmpty()
        val groups = listOf("cpu", "cpuacct", "cpuset", "memory").map { Path.of("/sys/fs/cgroup/$it/stackbench") }.filter { Files.isDirectory(it) }
            .flatMap { root -> Files.list(root).use { s -> s.filter { Files.isDirectory(it) }.toList() } }
        assertThat(groups.filter { it.fileName.toString().startsWith("sb$runner-") }).`as`("cgroups of the run's runner after it exited").isEmpty()
    }

    private companion object {
        /** The tiny suite's connections: the cells' load, and the allocation probe's edge allowance. */
        const val CONNECTIONS = 8
    }
}
