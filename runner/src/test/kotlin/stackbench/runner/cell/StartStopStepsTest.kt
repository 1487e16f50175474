package stackbench.runner.cell

import stackbench.runner.host.LaunchSpec
import stackbench.runner.host.LocalHost
import stackbench.runner.host.ProcessRegistry
import stackbench.runner.isolation.Isolation
import stackbench.runner.plan.Cell
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Json
import stackbench.runner.results.LoadResult
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import stackbench.runner.sut.AppStarter
import stackbench.runner.sut.Http
import stackbench.runner.sut.RunningApp
import com.sun.net.httpserver.HttpServer
import java.net.InetSocketAddress
import java.net.URI
import java.nio.file.Path
import java.time.Duration
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

/** The real start and stop steps, with a fake process launcher: an app is a `sleep`, its health check a tiny server. */
class StartStopStepsTest {
    private val cells = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nrepetitions: 2\nrestart: app", "t.yaml")).cells
    private val registry = ProcessRegistry()
    private val host = LocalHost(registry)
    private val lab = Lab(Path.of("."), Path.of("java"), 2, Isolation.TasksetOnly("a test"), stackbench.runner.host.RoleHosts.single(host), registry, Http(), Json.mapper,
        driver = { error("no driver here") })
    /** Requests the fake app was sent, by path. */
    private val calls = java.util.concurrent.ConcurrentHashMap<String, Int>()
    private val health = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0).apply {
        createContext("/") { exchange ->
            val path = exchange.requestURI.path
            calls.merge(path, 1, Int::plus)
            val body = when (path) {
                stackbench.contract.Paths.NOOP -> stackbench.contract.Paths.NOOP_BODY
                stackbench.contract.Paths.INFO -> "{\"stack\": \"tomcat\"}"
                else -> null
            }?.toByteArray()
            exchange.sendResponseHeaders(200, body?.size?.toLong() ?: -1)
            body?.let { exchange.responseBody.write(it) }
            exchange.close()
        }
        start()
    }

    @AfterEach
    fun stop() {
        health.stop(0)
        registry.killAll(Duration.ofMillis(100))
    }

    /** Starts `sleep 60` in place of the app; counts its starts. */
    private inner class FakeStarter : AppStarter {
        val started = mutableListOf<RunningApp>()
        override fun start(cell: Cell, cellDir: Path, groupName: String, downstreamUrl: String?): RunningApp {
            val command = listOf("sleep", "60")
            val child = host.launch(LaunchSpec("app", command, cellDir.resolve("app.log")))
            val base = URI("http://127.0.0.1:${health.address.port}")
            return RunningApp(child, stackbench.runner.isolation.Confinement.none(), base, base.resolve("/stats"), command, cellDir, cell.key, sut = stackbench.runner.sut.BuiltinApp(stackbench.runner.catalog.Stack.TOMCAT, cellDir, false))
                .also { started += it }
        }

        /** The starter's calls after start, in order. */
        val events = mutableListOf<String>()
        /** Why applying the CPU limits fails, or null: they apply. */
        var limitsRefused: String? = null

        override fun awaitHealthy(app: RunningApp, timeout: Duration) = 1234.0.also { events += "healthy" }

        override fun applyCpuLimits(app: RunningApp) {
            events += "cpu limits"
            limitsRefused?.let { throw stackbench.runner.sut.AppStartException(it, emptyList()) }
        }

        val released = mutableListOf<List<Int>>()
        override fun releaseStatsThreads(app: RunningApp, driverCpus: List<Int>): String {
            events += "stats threads"
            released += driverCpus
            return "out of the app's limits, on CPU ${driverCpus.joinToString(",")}"
        }
    }

    private val starter = FakeStarter()

    /** Start, then a step that measures a window (or fails), then the real stop. */
    private fun steps(fail: Boolean, verify: Boolean = false) = CellSteps(listOf(StartStep(starter)) + listOfNotNull(VerifyStep().takeIf { verify }) + listOf(object : CellStep {
        override val name = "load"
        override fun run(run: CellRun): Outcome? {
            if (fail) return Outcome.Failed("verification failed: 500", emptyList())
            run.record.measured = LoadResult("oha", "closed", false, 1.0, 10, 10, 10.0)
            return null
        }
    }), StopStep())

    private fun context(dir: Path, sessions: AppSessions?) =
        CellContext(dir, "t", downstreamUrl = { _, _ -> null }, listener = ProgressListener.Silent, stopping = { false }, sessions = sessions)

    @Test
    fun `the CPU limits a start on every CPU put off apply once the app is healthy, before its stats threads leave them, and a refusal fails the cell`(@TempDir dir: Path) {
        CellRunner(lab, steps(fail = false)).run(cells[0], context(dir, null))
        assertThat(starter.events).containsExactly("healthy", "cpu limits", "stats threads")

        starter.events.clear()
        starter.limitsRefused = "cpuset.cpus: Invalid argument"
        val refused = CellRunner(lab, steps(fail = false)).run(cells[1], context(dir, null))
        assertThat(refused.status).isEqualTo(CellStatus.FAILED)
        assertThat(refused.reason).contains("cpuset.cpus: Invalid argument")
        assertThat(refused.window.measured).isNull()
        assertThat(starter.events).containsExactly("healthy", "cpu limits")
        assertThat(starter.started.last().isAlive()).isFalse()
    }

    @Test
    fun `a cell that fails stops the app it started`(@TempDir dir: Path) {
        val result = CellRunner(lab, steps(fail = true)).run(cells[0], context(dir, null))
        assertThat(result.status).isEqualTo(CellStatus.FAILED)
        assertThat(result.app.command).containsExactly("sleep", "60")
        assertThat(starter.started.single().isAlive()).isFalse()
    }

    @Test
    fun `with restart app, a cell that measured keeps its app and the next cell of its configuration reuses it`(@TempDir dir: Path) {
        val sessions = AppSessions(lab.http)
        val first = CellRunner(lab, steps(fail = false)).run(cells[0], context(dir, sessions))
        val app = starter.started.single()
        assertThat(app.isAlive()).isTrue()
        assertThat(first.appStartedBy).isNull()

        val second = CellRunner(lab, steps(fail = false)).run(cells[1], context(dir, sessions))
        assertThat(starter.started).hasSize(1)
        assertThat(second.appStartedBy).isEqualTo(cells[0].key)
        // the stats threads are placed once, by the cell that started the process, and every cell records where they ran
        assertThat(starter.released).hasSize(1)
        assertThat(first.system.statsThreads).startsWith("out of the app's limits").isEqualTo(second.system.statsThreads)
        assertThat(second.app.command).containsExactly("sleep", "60")

        sessions.stopAll()
        assertThat(app.isAlive()).isFalse()
    }

    @Test
    fun `a kept app that no cell still to run will use is stopped, not left idle beside the next ones`(@TempDir dir: Path) {
        val sessions = AppSessions(lab.http)
        CellRunner(lab, steps(fail = false)).run(cells[0], context(dir, sessions))
        val app = starter.started.single()
        // the next cell is of the same configuration and process: the app waits for it
        sessions.retire(listOf(cells[1]))
        assertThat(app.isAlive()).isTrue()
        // no cell left of its process: stopped now, not when the next process's first cell comes
        sessions.retire(emptyList())
        assertThat(app.isAlive()).isFalse()
        assertThat(sessions.take(cells[1])).isNull()
    }

    @Test
    fun `a later repetition on the same process reuses the info and the verification, so no request of the runner's reaches the warm app between repetitions`(@TempDir dir: Path) {
        val sessions = AppSessions(lab.http)
        val first = CellRunner(lab, steps(fail = false, verify = true)).run(cells[0], context(dir, sessions))
        assertThat(first.verification!!.ok).isTrue()
        assertThat(first.verification!!.verifiedBy).isNull()
        val sent = calls.toMap()
        assertThat(sent[stackbench.contract.Paths.INFO]).isEqualTo(1)
        assertThat(sent[stackbench.contract.Paths.NOOP]).isEqualTo(1)

        val second = CellRunner(lab, steps(fail = false, verify = true)).run(cells[1], context(dir, sessions))
        assertThat(calls.filterKeys { it != "/stats" }).isEqualTo(sent) // the kept app's liveness is asked of its stats channel
        assertThat(second.verification).isEqualTo(first.verification!!.copy(verifiedBy = cells[0].key))
        assertThat(second.system.info).isEqualTo(first.system.info)
        assertThat(second.system.info!!.path("stack").asString("")).isEqualTo("tomcat")
        sessions.stopAll()
    }

    @Test
    fun `a url app is started by no one, the real start step attaches to it, the cell records no process and no start-up, and stop leaves it running`(@TempDir dir: Path) {
        val url = "http://127.0.0.1:${health.address.port}"
        val cell = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: u\napps: [{name: remote, url: '$url'}]\nendpoints: [{kind: http, name: x, path: /x}]\nrepetitions: 1", "u.yaml")).cells.single()
        val launcher = stackbench.runner.sut.AppLauncher(host, lab.isolation, lab.java, lab.home, lab.machineCpus, lab.http)
        var attached: RunningApp? = null
        val steps = CellSteps(listOf(StartStep(launcher), VerifyStep(), object : CellStep {
            override val name = "load"
            override fun run(run: CellRun): Outcome? {
                attached = run.started()
                run.record.measured = LoadResult("oha", "closed", false, 1.0, 10, 10, 10.0)
                return null
            }
        }), StopStep())
        val result = CellRunner(lab, steps).run(cell, context(dir, null))
        assertThat(result.status).`as`(result.reason ?: "").isEqualTo(CellStatus.OK)
        assertThat(attached!!.process).isNull()
        assertThat(registry.alive()).`as`("no process started").isEmpty()
        assertThat(result.verification!!.ok).isTrue()
        assertThat(result.start.startup).`as`("no start to time").isNull()
        assertThat(result.app.command).isEmpty()
        assertThat(result.profile.isolation).isEqualTo("none")
        assertThat(result.flags.map { it.code }).contains("not-isolated").doesNotContain("shared-cpus", "no-cgroup")
        assertThat(result.system.sut!!.url).isEqualTo(url)
        assertThat(result.system.sut!!.offers).isEmpty()
        assertThat(result.system.sut!!.lacks).contains("process", "JVM signals", "stats channel")
        assertThat(Http().statusOf(URI("$url/x"))).`as`("stop did nothing to it").isEqualTo(200)
        assertThat(calls["/x"]).isEqualTo(2) // the verification's request, after the readiness check's (/ on an own app) and the attach's
    }

    @Test
    fun `a new process verifies again`(@TempDir dir: Path) {
        CellRunner(lab, steps(fail = false, verify = true)).run(cells[0], context(dir, null))
        CellRunner(lab, steps(fail = false, verify = true)).run(cells[1], context(dir, null))
        assertThat(starter.started).hasSize(2)
        assertThat(calls[stackbench.contract.Paths.NOOP]).isEqualTo(2)
        assertThat(calls[stackbench.contract.Paths.INFO]).isEqualTo(2)
    }
}
