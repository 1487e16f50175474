package stackbench.runner.run

import stackbench.runner.stats.Relation
import stackbench.runner.results.staged
import stackbench.runner.cell.ProgressListener
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Fixtures
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

class SuiteRunnerTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}, {stack: jetty}]\nendpoints: [{kind: cpu, strategies: [direct], limit: [100, 1000]}]\nrepetitions: 1", "t.yaml"))

    @Test
    fun `results are on disk after every cell, and a failed cell does not stop the run`(@TempDir dir: Path) {
        val seenOnDisk = mutableListOf<Int>()
        val runner = SuiteRunner({ cell, ctx ->
            seenOnDisk += ResultsStore.read(ctx.runDir).cells.size
            if (cell.index == 2) Fixtures.cell(cell, CellStatus.FAILED, reason = "verification failed") else Fixtures.cell(cell)
        }, ProgressListener.Silent)
        val result = runner.run(plan, dir, Fixtures.info(plan.cells.size), Fixtures.environment(), hooks = false)
        assertThat(seenOnDisk).containsExactly(0, 1, 2, 3)
        assertThat(result.cells.map { it.status }).containsExactly(CellStatus.OK, CellStatus.FAILED, CellStatus.OK, CellStatus.OK)
        assertThat(result.run.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(ResultsStore.read(dir)).isEqualTo(result)
    }

    @Test
    fun `a stop request ends the run after the current cell with valid results marked interrupted`(@TempDir dir: Path) {
        lateinit var runner: SuiteRunner
        runner = SuiteRunner({ cell, _ ->
            if (cell.index == 2) runner.requestStop()
            Fixtures.cell(cell, if (cell.index == 2) CellStatus.INTERRUPTED else CellStatus.OK)
        }, ProgressListener.Silent)
        val result = runner.run(plan, dir, Fixtures.info(plan.cells.size), Fixtures.environment(), hooks = false)
        assertThat(result.cells.map { it.index }).containsExactly(1, 2)
        assertThat(ResultsStore.read(dir).run.status).isEqualTo(RunStatus.INTERRUPTED)
    }

    @Test
    fun `resume runs only the cells the earlier results lack`(@TempDir dir: Path) {
        val earlier = stackbench.runner.results.RunResult(run = Fixtures.info(4), environment = Fixtures.environment(), cells = listOf(
            Fixtures.cell(plan.cells[0]), Fixtures.cell(plan.cells[1], CellStatus.FAILED, reason = "x"), Fixtures.cell(plan.cells[2], CellStatus.INTERRUPTED),
        ))
        val ran = mutableListOf<Int>()
        val result = SuiteRunner({ cell, _ -> ran += cell.index; Fixtures.cell(cell) }, ProgressListener.Silent)
            .run(plan, dir, Fixtures.info(4), Fixtures.environment(), earlier, hooks = false)
        assertThat(ran).containsExactly(3, 4) // the interrupted cell is re-run; finished ones, failed or not, are kept
        assertThat(result.cells.map { it.index }).containsExactly(1, 2, 3, 4)
    }
}

class UntilDecidedTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: p, stack: tomcat}, {name: v, stack: tomcat, virtual-threads: true}, {name: w, stack: webflux}]
        endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
        load: {connections: [100]}
        repetitions: 3
        compare:
          - {name: clear, a: v/io-blocking-delay100/c100, b: p/io-blocking-delay100/c100}
          - {name: noisy, a: w/io-blocking-delay100/c100, b: p/io-blocking-delay100/c100}
        """.trimIndent(), "t.yaml"))

    /** p: 500 req/s; v: 1,000; w: alternating 520 / 700 until its 5th repetition, then 980 (a noisy side that settles). */
    private fun throughput(app: String, rep: Int) = when (app) {
        "p" -> 500.0 + rep
        "v" -> 1000.0 - rep
        else -> if (rep < 5) (if (rep % 2 == 0) 700.0 else 520.0) else 980.0 + rep
    }

    @Test
    fun `undecided comparisons get interleaved rounds of their own cells until decided`(@TempDir dir: Path) {
        val ran = mutableListOf<String>()
        val result = SuiteRunner({ cell, _ -> ran += cell.key; Fixtures.cell(cell, throughput = throughput(cell.app.name, cell.repetition)) }, ProgressListener.Silent)
            .run(plan, dir, Fixtures.info(plan.cells.size), Fixtures.environment(), hooks = false, untilDecided = java.time.Duration.ofHours(1))
        // three planned rounds of three cells; then only the noisy comparison's two configurations, one more process
        // (restart: cell: one more cell) each per look, up to K = 4 looks (an hour's budget fits more: K is capped)
        assertThat(ran.take(9).map { it.substringAfterLast('/') }).containsExactly("r1", "r1", "r1", "r2", "r2", "r2", "r3", "r3", "r3")
        assertThat(ran.drop(9)).allMatch { !it.startsWith("v/") }
        assertThat(ran.drop(9).take(2)).containsExactly("p/io-blocking-delay100/c100/r4", "w/io-blocking-delay100/c100/r4")
        val clear = result.decisions.single { it.name == "clear" }
        val noisy = result.decisions.single { it.name == "noisy" }
        // the clear one decided at the first look, at the first look's confidence, and kept that decision
        assertThat(clear.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(clear.decision.look to clear.decision.maxLooks).isEqualTo(1 to 4)
        assertThat(clear.decision.confidence).isEqualTo(stackbench.runner.stats.SequentialLooks(4).confidenceAt(1))
        assertThat(clear.decision.method).isEqualTo("welch-log-process-means")
        assertThat(clear.decision.processesA to clear.decision.processesB).isEqualTo(3 to 3)
        // the noisy one took a look after every round: one more process a side each
        assertThat(noisy.decision.maxLooks).isEqualTo(4)
        assertThat(ran).hasSize(9 + 2 * (noisy.decision.look!! - 1))
        assertThat(noisy.decision.processesA).isEqualTo(3 + noisy.decision.look!! - 1)
        assertThat(noisy.decision.confidence).isEqualTo(stackbench.runner.stats.SequentialLooks(4).confidenceAt(noisy.decision.look!!))
        assertThat(noisy.decided || noisy.decision.look == 4).isTrue()
        assertThat(ResultsStore.read(dir).decisions).isEqualTo(result.decisions)
    }

    @Test
    fun `a budget with no room for a round ends the run with the comparison still open`(@TempDir dir: Path) {
        val result = SuiteRunner({ cell, _ -> Fixtures.cell(cell, throughput = throughput(cell.app.name, cell.repetition)) }, ProgressListener.Silent)
            .run(plan, dir, Fixtures.info(plan.cells.size), Fixtures.environment(), hooks = false, untilDecided = java.time.Duration.ofSeconds(1))
        assertThat(result.cells).hasSize(9)
        assertThat(result.decisions.single { it.name == "noisy" }.decided).isFalse()
    }

    @Test
    fun `a round fits the budget by the cells' measured times, not the plan's, when the host runs slower than planned`(@TempDir dir: Path) {
        // each cell took 10 min from its app's start to its stop: a round of the noisy comparison's two cells takes 20,
        // which a 15-minute budget has no room for, however short the plan's estimate of them
        val slow = Fixtures.cell(plan.cells.first()).timings!!.copy(totalMs = 600_000)
        val planned = plan.cells.filter { it.app.name != "v" }.take(2)
        assertThat(planned.sumOf { stackbench.runner.plan.Estimates.cell(it).toMillis() } +
            stackbench.runner.plan.Estimates.priming(planned, false).toMillis()).`as`("the plan's estimate of the round").isLessThan(15 * 60_000L)
        val result = SuiteRunner({ cell, _ -> Fixtures.cell(cell, throughput = throughput(cell.app.name, cell.repetition)).copy(timings = slow) }, ProgressListener.Silent)
            .run(plan, dir, Fixtures.info(plan.cells.size), Fixtures.environment(), hooks = false, untilDecided = java.time.Duration.ofMinutes(15))
        assertThat(result.cells).hasSize(9)
        assertThat(result.decisions.single { it.name == "noisy" }.decided).isFalse()
        // at the plan's own pace the same budget takes the round
        val quick = SuiteRunner({ cell, _ -> Fixtures.cell(cell, throughput = throughput(cell.app.name, cell.repetition)) }, ProgressListener.Silent)
            .run(plan, dir.resolve("quick"), Fixtures.info(plan.cells.size), Fixtures.environment(), hooks = false, untilDecided = java.time.Duration.ofMinutes(15))
        assertThat(quick.cells.size).isGreaterThan(9)
    }
}

class CapacitySearchTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nrepetitions: 1\n" +
            "load: {model: open, find: capacity, slo: {p99: 50ms, errors: 1%}, start-rate: 100, max-rate: 3200, precision: 10%}", "t.yaml"))

    /** An app whose p99 stays at 5 ms up to 1,000 req/s and then explodes. */
    private fun fakeApp(capacity: Double) = CellExecutor { cell, _ ->
        val rate = (cell.load.shape as stackbench.runner.plan.LoadShape.Open).rate
        val r = Fixtures.cell(cell, throughput = rate)
        r.staged(measured = r.window.measured!!.copy(latency = r.window.measured!!.latency.copy(p99 = if (rate <= capacity) 5.0 else 900.0)))
    }

    @Test
    fun `the search steps up, bisects, and records the highest rate that held`(@TempDir dir: Path) {
        val result = SuiteRunner(fakeApp(1000.0), ProgressListener.Silent).run(plan, dir, Fixtures.info(), Fixtures.environment(), hooks = false)
        val search = result.searches.single()
        assertThat(search.steps.take(5).map { it.rate }).containsExactly(100.0, 200.0, 400.0, 800.0, 1600.0)
        assertThat(search.capacity!!).isBetween(900.0, 1000.0)
        assertThat(search.brokeAt!!).isGreaterThan(1000.0)
        assertThat(result.cells.map { it.key }).containsExactlyElementsOf(search.cellKeys)
        assertThat(result.cells.map { it.index }).containsExactlyElementsOf(1..result.cells.size)
        assertThat(ResultsStore.read(dir).searches).isEqualTo(result.searches)
    }

    @Test
    fun `with restart app a search first primes the app with a closed-model cell, kept apart from the steps`(@TempDir dir: Path) {
        val primed = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nrestart: app\nrepetitions: 1\n" +
                "load: {model: open, find: capacity, slo: {p99: 50ms, errors: 1%}, start-rate: 100, max-rate: 3200, precision: 10%}", "t.yaml"))
        assertThat(plan.searches.single().prime).isFalse()
        val ran = mutableListOf<String>()
        val result = SuiteRunner({ cell, ctx ->
            ran += cell.key
            if (cell.load.shape is stackbench.runner.plan.LoadShape.Closed) Fixtures.cell(cell) else fakeApp(1000.0).run(cell, ctx)
        }, ProgressListener.Silent).run(primed, dir, Fixtures.info(), Fixtures.environment(), hooks = false)
        val search = result.searches.single()
        assertThat(ran.first()).isEqualTo("tomcat/noop/c50/r1")
        assertThat(search.primeKey).isEqualTo("tomcat/noop/c50/r1")
        assertThat(search.cellKeys).doesNotContain("tomcat/noop/c50/r1")
        assertThat(search.capacity!!).isBetween(900.0, 1000.0)
        assertThat(result.cells.map { it.key }).containsExactlyElementsOf(listOf("tomcat/noop/c50/r1") + search.cellKeys)
    }

    @Test
    fun `a resumed search reuses the cells it already ran`(@TempDir dir: Path) {
        val first = SuiteRunner(fakeApp(1000.0), ProgressListener.Silent).run(plan, dir, Fixtures.info(), Fixtures.environment(), hooks = false)
        val partial = first.copy(cells = first.cells.take(3), searches = emptyList())
        val ran = mutableListOf<String>()
        val again = SuiteRunner({ cell, ctx -> ran += cell.key; fakeApp(1000.0).run(cell, ctx) }, ProgressListener.Silent)
            .run(plan, dir, Fixtures.info(), Fixtures.environment(), partial, hooks = false)
        assertThat(ran).doesNotContainAnyElementsOf(first.cells.take(3).map { it.key })
        assertThat(again.searches.single().capacity).isEqualTo(first.searches.single().capacity)
    }
}
