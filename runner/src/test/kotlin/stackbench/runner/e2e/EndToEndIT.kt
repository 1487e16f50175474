package stackbench.runner.e2e

import org.assertj.core.api.Assertions.assertThat
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
class EndToEndIT {
    private val home = Path.of(System.getProperty("stackbench.home"))
    private val jar = Path.of(System.getProperty("stackbench.runner.jar"))
    private val java = Path.of(System.getProperty("java.home"), "bin", "java")
    private val cpus = Runtime.getRuntime().availableProcessors()

    /** oha runs each cell in a fresh app (`restart: cell`, the default); wrk runs both in one (`restart: app`), so each path is covered. */
    private fun suite(dir: Path, driver: String, duration: String, cells: String): Path {
        val pinned = if (cpus >= 2) "cpuset: [${cpus - 1}]," else ""
        val file = dir.resolve("e2e-$driver.yaml")
        Files.writeString(file, """
            name: e2e-$driver
            apps: [{name: tc, stack: tomcat}]
            profile: {cpus: 1, $pinned memory: 512MiB}
            endpoints: $cells
            load: {driver: $driver, connections: 8, warmup: 1s, prime: false, duration: $duration, timeout: 5s}
            repetitions: 1
            restart: ${if (driver == "wrk") "app" else "cell"}
        """.trimIndent())
        return file
    }

    /** [fastStart]: the apps from their extracted jars with a class-data archive (`--fast-start`); oha's run starts them as a user's run does. */
    private fun start(suite: Path, out: Path, console: Path, fastStart: Boolean): Process =
        ProcessBuilder(listOf(java.toString(), "-Dstackbench.home=$home", "-jar", jar.toString(), "run", suite.toString(), "--out", out.toString(), "--no-install") +
            if (fastStart) listOf("--fast-start") else emptyList())
            .redirectErrorStream(true).redirectOutput(console.toFile()).start()

    private fun toolMissing(driver: String) = listOf(home.resolve(".tools/bin/$driver"), Path.of("/usr/bin/$driver"), Path.of("/usr/local/bin/$driver"))
        .none { Files.isExecutable(it) }

    @ParameterizedTest(name = "through {0}")
    @ValueSource(strings = ["oha", "wrk"])
    fun `a tiny suite runs end to end and leaves whole results and no process`(driver: String, @TempDir dir: Path) {
        Needs.that(!toolMissing(driver), "$driver is not installed")
        val out = dir.resolve("results")
        val console = dir.resolve("console.txt")
        val process = start(suite(dir, driver, "2s", "[{kind: cpu, strategies: [direct], limit: 1000}, {kind: io, strategies: [blocking], delay: 20ms}]"), out, console,
            fastStart = driver == "wrk")
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
            assertThat(c.info!!.path("stack").asString()).isEqualTo("tomcat")
            val m = c.measured!!
            assertThat(m.driver).isEqualTo(driver)
            assertThat(m.throughput).isPositive()
            assertThat(m.successes).isEqualTo(m.responses)
            assertThat(m.latency.p99).isPositive()
            val r = c.resources!!
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
        assertThat(first.startup!!.toHealthyMs).isPositive()
        assertThat(first.startup!!.springStartedSeconds).isPositive()
        assertThat(first.startup!!.fastStart).isEqualTo(driver == "wrk")
        if (driver == "wrk") {
            assertThat(result.cells[1].appStartedBy).isEqualTo(first.key)
        } else {
            assertThat(result.cells[1].startup!!.toHealthyMs).isPositive()
            assertThat(result.cells[1].appStartedBy).isNull()
        }
        // the I/O cell waits 20 ms a request on 8 connections: at most 400 answers a second
        assertThat(result.cells[1].measured!!.throughput).isLessThan(400.0)
        assertThat(result.cells[1].measured!!.latency.p50).isGreaterThanOrEqualTo(20.0)
        assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(3)
        assertNothingLeft(out)
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
        assertNothingLeft(out)
    }

    /** No process whose command line names this run's folder, and no cgroup of the runner's, is left. */
    private fun assertNothingLeft(out: Path) {
        Thread.sleep(500)
        val left = ProcessHandle.allProcesses().filter { p ->
            p.info().arguments().map { args -> args.any { it.contains(out.toString()) } }.orElse(false)
        }.map { "${it.pid()} ${it.info().commandLine().orElse("")}" }.toList()
        assertThat(left).isEmpty()
        val groups = listOf("cpu", "cpuacct", "cpuset", "memory").map { Path.of("/sys/fs/cgroup/$it/stackbench") }.filter { Files.isDirectory(it) }
            .flatMap { root -> Files.list(root).use { s -> s.filter { Files.isDirectory(it) }.toList() } }
        val runnerGroups = groups.filter { g -> !ProcessHandle.of(Regex("^sb(\\d+)-").find(g.fileName.toString())?.groupValues?.get(1)?.toLong() ?: -1).isPresent && g.fileName.toString().startsWith("sb") }
        assertThat(runnerGroups).`as`("cgroups of runners that have exited").isEmpty()
    }
}
