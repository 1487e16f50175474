package stackbench.runner.e2e

import org.junit.jupiter.api.Order
import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import stackbench.runner.testing.RunnerCommand
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.testing.Needs
import stackbench.runner.testing.TinyJar
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions
import java.util.concurrent.TimeUnit

/**
 * A service that is none of the lab's apps (test resources: own-app/TinyServer.java, built into a jar here), run
 * through the whole lab as a user's own jar and as a command: measured when it behaves, and every way it can misbehave
 * named, before anything starts (exit 2) or in its failed cell, with the runner's real jar and wrk.
 */
@Background
@Order(2)
@ResourceLock(SharedMachine.LANE_2)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OwnAppIT {
    private val home = Path.of(System.getProperty("stackbench.home"))
    private val java = Path.of(System.getProperty("java.home"), "bin", "java")
    private lateinit var dir: Path
    private lateinit var tiny: Path

    @BeforeAll
    fun build(@TempDir temp: Path) {
        dir = temp
        tiny = TinyJar.build(dir)
        // any command: a script that starts the same server (the lab knows nothing of what it runs)
        val script = dir.resolve("tiny-server.sh")
        Files.writeString(script, "#!/bin/sh\nexec \"$java\" -jar \"$tiny\" \"$@\"\n")
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"))
    }

    private fun wrk() = Needs.that(Files.isExecutable(Path.of("/usr/bin/wrk")) || Files.isExecutable(Path.of("/usr/local/bin/wrk")), "wrk is not installed")

    private data class Ran(val exit: Int, val console: String, val cells: List<CellResult>)

    private fun run(name: String, apps: String, endpoint: String = PRIMES,
                    profile: String = "{cpus: none, cpuset: [${Runtime.getRuntime().availableProcessors() - 1}], memory: 512MiB}"): Ran {
        val suite = dir.resolve("$name.yaml")
        Files.writeString(suite, """
            |name: $name
            |apps:
            |$apps
            |profile: $profile
            |endpoints:
            |  - $endpoint
            |load: {driver: wrk, connections: 10, warmup: 2s, warmup-max: 12s, duration: 3s, timeout: 5s}
            |repetitions: 1
            |""".trimMargin())
        val out = dir.resolve(name)
        val console = dir.resolve("$name.txt")
        val process = ProcessBuilder(RunnerCommand.of("run", suite.toString(), "--out", out.toString(), "--no-install"))
            .redirectErrorStream(true).redirectOutput(console.toFile()).start()
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).`as`("$name finished in time").isTrue()
        val text = Files.readString(console)
        println("--- $name\n$text")
        val cells = if (Files.exists(out.resolve("results.json"))) ResultsStore.read(out).cells else emptyList()
        return Ran(process.exitValue(), text, cells)
    }

    @Test
    fun `an own jar and a command are verified, warmed up and measured, and say what the lab could not read of them`() {
        wrk()
        val ran = run("own-ok", """
            |  - {name: tiny-jar, jar: ${tiny}, args: ["{port}"], ready: /ready}
            |  - {name: tiny-cmd, command: [${dir.resolve("tiny-server.sh")}, "{port}"], ready: {path: /ready, status: 200, timeout: 30s}}""".trimMargin())
        assertThat(ran.exit).`as`(ran.console).isZero()
        val byApp = ran.cells.associateBy { it.app.name }
        for (cell in ran.cells) {
            assertThat(cell.status).`as`(cell.reason ?: "").isEqualTo(CellStatus.OK)
            assertThat(cell.verification!!.ok).isTrue()
            assertThat(cell.window.measured!!.throughput).isGreaterThan(0.0)
            assertThat(cell.window.measured!!.errorCount).isZero()
            assertThat(cell.system.sut!!.answersCountedBy).isEqualTo("the load generator, in warm-up runs of one slice each")
            assertThat(cell.warmup.record!!.slices).isNotEmpty()
            assertThat(cell.start.startup!!.springStartedSeconds).`as`("no Spring start line to read").isNull()
            assertThat(cell.system.info).`as`("no /info to read").isNull()
        }
        val jarCell = byApp.getValue("tiny-jar")
        assertThat(jarCell.system.sut!!.kind).isEqualTo("jar")
        assertThat(jarCell.system.sut!!.offers).containsExactly("process", "JVM signals")
        assertThat(ran.cells.flatMap { c -> c.flags.map { it.code } }).`as`("apps the lab started are isolated").doesNotContain("not-isolated")
        assertThat(jarCell.app.command).contains("-XX:ActiveProcessorCount=1", "-jar", tiny.toString())
        assertThat(jarCell.warmup.record!!.slices.map { it.compileShare }).`as`("the JIT's CPU, read from /proc for a JVM the lab started").allMatch { it != null }
        assertThat(jarCell.warmup.record!!.slices.map { it.compilingShare }).`as`("the JIT's clock, read from the JVM's perf-data file").allMatch { it != null }
        assertThat(jarCell.window.jvm!!.compilationMs).`as`("the window's JIT time from the perf-data file").isNotNull()
        assertThat(jarCell.window.jvm!!.classesLoaded).isNotNull()
        assertThat(jarCell.window.jvm!!.cpuMsPerRequest).isNotNull().isPositive()
        assertThat(byApp.getValue("tiny-cmd").window.jvm?.compilationMs).`as`("a command's JIT over the window is unknown").isNull()
        val cmdCell = byApp.getValue("tiny-cmd")
        assertThat(cmdCell.system.sut!!.kind).isEqualTo("command")
        assertThat(cmdCell.system.sut!!.lacks).contains("JVM signals", "stats channel")
        assertThat(cmdCell.warmup.record!!.slices.map { it.compileShare }).`as`("a command's JIT is unknown, not zero").allMatch { it == null }
        assertThat(cmdCell.warmup.record!!.slices.map { it.compilingShare }).allMatch { it == null }
    }

    @Test
    fun `an own app that dies, never gets ready, never opens its port or answers wrong fails its cell with the cause`() {
        wrk()
        val ran = run("own-bad", """
            |  - {name: dies, jar: $tiny, args: ["{port}", exit]}
            |  - {name: unready, jar: $tiny, args: ["{port}", never-ready], ready: {path: /ready, timeout: 3s}}
            |  - {name: portless, command: [${dir.resolve("tiny-server.sh")}, "{port}", no-port], ready: {path: /ready, timeout: 3s}}
            |  - {name: wrong, jar: $tiny, args: ["{port}", wrong-body], ready: /ready}""".trimMargin())
        assertThat(ran.exit).`as`(ran.console).isEqualTo(1)
        val reasons = ran.cells.associate { it.app.name to (it.status to it.reason.orEmpty()) }
        assertThat(reasons.values.map { it.first }).containsOnly(CellStatus.FAILED)
        assertThat(reasons.getValue("dies").second).isEqualTo("the app exited with status 3 before it was ready")
        assertThat(ran.console).`as`("the app's last words under its cell").contains("| boom: cannot read orders.conf")
        assertThat(reasons.getValue("unready").second).isEqualTo("the app was not ready within 3 s: GET /ready answered 503, waiting for GET /ready answering 200")
        assertThat(reasons.getValue("portless").second).`as`("another run's server may take the port the app never binds; its answers are not the app's")
            .matches("the app was not ready within 3 s: its port \\d+ never answered HTTP( from the app: another process listens there, .+)?")
        assertThat(reasons.getValue("wrong").second).isEqualTo("verification failed: expected /count = 1229, got 1228")
        assertThat(ran.cells.first { it.app.name == "wrong" }.verification!!.bodyExcerpt).isEqualTo("""{"limit":10000,"count":1228}""")
    }

    @Test
    fun `a jar that is missing or not a jar, a command not found, or a build that fails stops the run before anything starts`() {
        val notJar = Files.writeString(dir.resolve("notes.jar"), "not a zip")
        for ((apps, message) in listOf(
            """  - {name: gone, jar: ${dir.resolve("gone.jar")}, args: ["{port}"]}""" to "apps.gone.jar: ${dir.resolve("gone.jar")} does not exist",
            """  - {name: notes, jar: $notJar, args: ["{port}"]}""" to "apps.notes.jar: $notJar is not a jar (it does not start as a zip file does)",
            """  - {name: nowhere, command: [no-such-server-anywhere, "{port}"]}""" to "apps.nowhere.command: 'no-such-server-anywhere' is not found on the PATH",
            """  - {name: unbuilt, jar: $tiny, args: ["{port}"], build: [sh, -c, "echo missing symbol OrderService >&2; exit 4"]}""" to
                "exited with status 4 in $dir:\n  | missing symbol OrderService",
        )) {
            val ran = run("own-missing", apps)
            assertThat(ran.exit).`as`(ran.console).isEqualTo(2)
            assertThat(ran.console).contains(message)
            assertThat(ran.cells).`as`("no cell ran").isEmpty()
        }
    }

    /** A loopback port nothing listens on. */
    private fun freePort(): Int = stackbench.runner.host.ListenPorts.LOOPBACK.next()

    @Test
    fun `a url app already running is verified, warmed up and measured, flagged not-isolated, and what the lab could not read is unknown`() {
        wrk()
        // the service runs before the lab does, started by this test, not by the lab: on loopback, stopped here
        val port = freePort()
        val server = ProcessBuilder(java.toString(), "-jar", tiny.toString(), port.toString())
            .redirectErrorStream(true).redirectOutput(dir.resolve("url-server.log").toFile()).start()
        try {
            val http = stackbench.runner.sut.Http()
            val ready = URI("http://127.0.0.1:$port/ready")
            val deadline = System.nanoTime() + 30_000_000_000L
            while (http.statusOf(ready) != 200 && System.nanoTime() < deadline) Thread.sleep(100)
            assertThat(http.statusOf(ready)).`as`("the test's own server answers").isEqualTo(200)

            val ran = run("own-url", "  - {name: tiny-url, url: 'http://127.0.0.1:$port', ready: {path: /ready, timeout: 10s}}", profile = "{cpus: none}")
            assertThat(ran.exit).`as`(ran.console).isZero()
            val cell = ran.cells.single()
            assertThat(cell.status).`as`(cell.reason ?: "").isEqualTo(CellStatus.OK)
            assertThat(cell.verification!!.ok).isTrue()
            assertThat(cell.window.measured!!.throughput).isGreaterThan(0.0)
            assertThat(cell.window.measured!!.errorCount).isZero()
            assertThat(cell.flags.map { it.code }).contains("not-isolated").doesNotContain("shared-cpus", "no-cgroup")
            assertThat(cell.flags.first { it.code == "not-isolated" }.message).contains("http://127.0.0.1:$port")
            // nothing of the process is read: unknown (null), never zero
            val r = cell.resources.summary!!
            assertThat(listOf(r.cpuShare, r.cpuShareMax, r.rssMaxBytes, r.rssMeanBytes, r.threadsMax, r.voluntaryCtx, r.involuntaryCtx,
                r.periods, r.throttledPeriods, r.memoryPeakBytes, r.oomKills)).`as`("process and cgroup figures").containsOnlyNulls()
            assertThat(cell.resources.samples).isNotEmpty().allMatch { it.cpuMs == null && it.rssBytes == null && it.cgroupCpuMs == null }
            assertThat(cell.window.jvm?.compilationMs).isNull()
            assertThat(cell.window.jvm?.cpuMsPerRequest).isNull()
            assertThat(cell.warmup.record!!.slices).isNotEmpty().allMatch { it.compileShare == null && it.cpuShare == null && it.compilingShare == null }
            assertThat(cell.start.startup).`as`("no start to time").isNull()
            assertThat(cell.app.stack).isEqualTo("url")
            assertThat(cell.app.command).isEmpty()
            assertThat(cell.profile.isolation).isEqualTo("none")
            assertThat(cell.system.sut!!.kind).isEqualTo("url")
            assertThat(cell.system.sut!!.url).isEqualTo("http://127.0.0.1:$port")
            assertThat(cell.system.sut!!.offers).isEmpty()
            assertThat(cell.system.sut!!.lacks).containsExactly("process", "stats channel", "/info", "start-up line", "priming endpoint", "JVM signals")
            assertThat(server.isAlive).`as`("the lab stops nothing it did not start").isTrue()
        } finally {
            server.destroy()
            server.waitFor(10, TimeUnit.SECONDS)
        }
    }

    @Test
    fun `a url that does not answer stops the run before anything starts, naming its key and what the attempt met`() {
        val port = freePort()
        val ran = run("own-url-closed", "  - {name: closed, url: 'http://127.0.0.1:$port', ready: {path: /ready, timeout: 2s}}", profile = "{cpus: none}")
        assertThat(ran.exit).`as`(ran.console).isEqualTo(2)
        assertThat(ran.console).contains("apps.closed.url: http://127.0.0.1:$port did not answer as ready within 2 s").contains("GET /ready: connection refused")
        assertThat(ran.cells).`as`("no cell ran").isEmpty()
    }

    private companion object {
        const val PRIMES = "{kind: http, name: primes, path: '/primes?limit={limit}', params: {limit: [10000]}, check: {json: /count, equals: 1229}}"
    }
}
