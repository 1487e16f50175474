package stackbench.runner.cell

import stackbench.runner.host.LocalHost
import stackbench.runner.host.ProcessRegistry
import stackbench.runner.isolation.Isolation
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.IdleProbe
import stackbench.runner.results.Json
import stackbench.runner.results.LoadResult
import stackbench.runner.results.VerificationResult
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import stackbench.runner.sut.Http
import java.nio.file.Path
import java.time.Instant
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource

/** [CellRunner] with fake steps, a fake clock and no process: the order of the steps, and what a cell keeps however it ends. */
class CellRunnerTest {
    private val cell = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nrepetitions: 1", "t.yaml")).cells.single()
    private val registry = ProcessRegistry()
    private val lab = Lab(Path.of("."), Path.of("java"), 2, Isolation.TasksetOnly("a test"), stackbench.runner.host.RoleHosts.single(LocalHost(registry)), registry, Http(), Json.mapper,
        driver = { error("a step that needs no driver asked for one") })

    /** A clock that moves only when a step says so. */
    private class FakeTicker : Ticker {
        var nanos = 0L
        override fun nanoTime() = nanos
        override fun now(): Instant = Instant.EPOCH
    }

    private val ticker = FakeTicker()
    private val ran = mutableListOf<String>()
    private var stopping = false

    /** A step that takes [ms] on the fake clock, marks its phase as the real one does, records what it measured, or fails. */
    private fun step(name: String, ms: Long, phase: String?, failing: String?, measure: (CellRun) -> Unit) = object : CellStep {
        override val name = name
        override fun run(run: CellRun): Outcome? {
            ran += name
            ticker.nanos += ms * 1_000_000
            if (name == failing) throw IllegalStateException("$name broke")
            measure(run)
            phase?.let { run.clock.mark(it) }
            return null
        }
    }

    private val measured = LoadResult("oha", "closed", false, 10.0, 1000, 1000, 100.0)

    private fun steps(failing: String? = null, ending: Pair<String, Outcome>? = null): CellSteps {
        val all = listOf(
            step("start", 9000, "start", failing) { it.record.command = listOf("java", "-jar", "app.jar") },
            step("verify", 100, "verify", failing) { it.record.verification = VerificationResult(true, 200, 3.0, null, "ok") },
            step("warm up", 20_000, null, failing) { it.record.warmupSteps += listOf(900.0, 1000.0) },
            step("quiet", 300, "warmup", failing) { it.record.quietAfterWarmupMs = 300 },
            step("load", 10_000, "measured", failing) { it.record.measured = measured },
            step("probe", 1000, null, failing) { it.record.idle = IdleProbe(3, 1.5, 1.2, null) },
        ).map { s ->
            if (s.name != ending?.first) s else object : CellStep by s {
                override fun run(run: CellRun): Outcome? = s.run(run).let { ending.second }
            }
        }
        val stop = object : CellStep {
            override val name = "stop"
            override fun run(run: CellRun): Outcome? {
                ran += name
                ticker.nanos += 2000 * 1_000_000L
                return StopStep().run(run) // the real one: no app started here, so it only marks its time
            }
        }
        return CellSteps(all, stop)
    }

    private fun run(dir: Path, steps: CellSteps): CellResult =
        CellRunner(lab, steps, ticker).run(cell, CellContext(dir, "t", downstreamUrl = { _, _ -> null }, listener = ProgressListener.Silent, stopping = { stopping }))

    @Test
    fun `the steps run in order, then stop, and each phase's time is read from the clock`(@TempDir dir: Path) {
        val result = run(dir, steps())
        assertThat(ran).containsExactly("start", "verify", "warm up", "quiet", "load", "probe", "stop")
        assertThat(result.status).isEqualTo(CellStatus.OK)
        assertThat(result.reason).isNull()
        with(result.timings!!) {
            assertThat(listOf(startMs, verifyMs, warmupMs, measuredMs, stopMs, totalMs)).containsExactly(9000L, 100L, 20_300L, 10_000L, 3000L, 42_400L)
        }
    }

    @Test
    fun `the lab's own steps are start, verify, warm up, quiet, load and probe, then stop`() {
        val steps = CellSteps.of(lab)
        assertThat(steps.steps.map { it.name }).containsExactly("start", "verify", "warm up", "quiet", "load", "probe")
        assertThat(steps.stop.name).isEqualTo("stop")
    }

    @ParameterizedTest
    @ValueSource(strings = ["start", "verify", "warm up", "quiet", "load", "probe"])
    fun `a failure in any step ends the cell there, stops it, and keeps every figure measured before it`(failing: String, @TempDir dir: Path) {
        val order = listOf("start", "verify", "warm up", "quiet", "load", "probe")
        val before = order.takeWhile { it != failing }
        val result = run(dir, steps(failing = failing))

        assertThat(ran).containsExactlyElementsOf(before + failing + "stop")
        assertThat(result.status).isEqualTo(CellStatus.FAILED)
        assertThat(result.reason).isEqualTo("IllegalStateException: $failing broke")
        assertThat(result.app.command.isNotEmpty()).isEqualTo("start" in before)
        assertThat(result.verification != null).isEqualTo("verify" in before)
        assertThat(result.warmup.steps.isNotEmpty()).isEqualTo("warm up" in before)
        assertThat(result.warmup.quietAfterMs != null).isEqualTo("quiet" in before)
        assertThat(result.window.measured).isEqualTo(if ("load" in before) measured else null)
        assertThat(result.ceiling.idle != null).isEqualTo("probe" in before)
    }

    @Test
    fun `a step that ends the cell skips the rest, not the stop, and its reason and log tail are the cell's`(@TempDir dir: Path) {
        val result = run(dir, steps(ending = "verify" to Outcome.Failed("verification failed: 404", listOf("a log line"))))
        assertThat(ran).containsExactly("start", "verify", "stop")
        assertThat(result.status).isEqualTo(CellStatus.FAILED)
        assertThat(result.reason).isEqualTo("verification failed: 404")
        assertThat(result.logTail).containsExactly("a log line")
        assertThat(result.verification).isNotNull()
    }

    @Test
    fun `an interrupt during the load marks the cell interrupted and keeps its warm-up`(@TempDir dir: Path) {
        val interrupting = steps().let { s ->
            CellSteps(s.steps.map { step -> if (step.name != "load") step else object : CellStep by step {
                override fun run(run: CellRun): Outcome? { ran += name; throw InterruptedException() }
            } }, s.stop)
        }
        val result = run(dir, interrupting)
        assertThat(ran).containsExactly("start", "verify", "warm up", "quiet", "load", "stop")
        assertThat(result.status).isEqualTo(CellStatus.INTERRUPTED)
        assertThat(result.reason).isEqualTo("interrupted before the cell finished")
        assertThat(result.warmup.steps).containsExactly(900.0, 1000.0)
    }

    @Test
    fun `a driver that fails while the run is stopping is an interruption, not a failure`(@TempDir dir: Path) {
        val failingDriver = steps().let { s ->
            CellSteps(s.steps.map { step -> if (step.name != "warm up") step else object : CellStep by step {
                override fun run(run: CellRun): Outcome? { ran += name; stopping = true; throw DriverFailedException("oha exited with status 1", emptyList()) }
            } }, s.stop)
        }
        val result = run(dir, failingDriver)
        assertThat(result.status).isEqualTo(CellStatus.INTERRUPTED)
        assertThat(ran.last()).isEqualTo("stop")
    }

    @Test
    fun `a driver that fails because the app died names the app's exit and why, then the driver`(@TempDir dir: Path) {
        val dying = steps().let { s ->
            CellSteps(s.steps.map { step -> if (step.name != "warm up") step else object : CellStep by step {
                override fun run(run: CellRun): Outcome? {
                    ran += name
                    val child = LocalHost(registry).launch(stackbench.runner.host.LaunchSpec("app",
                        listOf("sh", "-c", "echo 'Terminating due to java.lang.OutOfMemoryError: Java heap space'; exit 3"), dir.resolve("app.log")))
                    child.process.waitFor()
                    run.app = stackbench.runner.sut.RunningApp(child, stackbench.runner.isolation.Confinement.none(), java.net.URI("http://127.0.0.1:1"), null,
                        listOf("sh"), dir, cell.key, sut = stackbench.runner.sut.SystemUnderTest.of(cell.app, Path.of(".")))
                    throw DriverFailedException("wrk exited with status 1", listOf("unable to connect to 127.0.0.1:1 Connection refused"))
                }
            } }, s.stop)
        }
        val result = run(dir, dying)
        assertThat(result.status).isEqualTo(CellStatus.FAILED)
        assertThat(result.reason).isEqualTo("the app exited (exit code 3: out of memory, java.lang.OutOfMemoryError in its log); then wrk exited with status 1")
        assertThat(result.logTail).contains("unable to connect to 127.0.0.1:1 Connection refused")
    }
}
