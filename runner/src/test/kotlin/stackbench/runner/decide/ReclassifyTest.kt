package stackbench.runner.decide

import stackbench.runner.stats.Relation
import stackbench.runner.results.staged
import stackbench.runner.cli.Exit
import stackbench.runner.cli.captured
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Flag
import stackbench.runner.results.Flags
import stackbench.runner.results.PublishedRecord
import stackbench.runner.results.ResourceSummary
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import stackbench.runner.results.WindowRecord
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

class ReclassifyTest {
    /** 986 req/s with a 2 s dip to 883 (the first second is the load generator's ramp, left out by the classifier). */
    private val dip = listOf<Double?>(500.0) + List(29) { 986.0 } + List(2) { 883.0 } + List(568) { 986.0 }

    /** 1,300 req/s for 10 s, then 2,400: a window that warmed up, whatever classifier reads it. */
    private val climb = listOf<Double?>(500.0) + List(10) { 1300.0 } + List(40) { 2400.0 }

    private val closedModel = Flag("closed-model", "closed-model latency", "latency")

    /** A window as the classifier before excursions recorded it: warming (its flag sits between two others). */
    private val warmingAsRecorded = WindowRecord("warming", 32, "from the second second on: 3 segments: ...", 5926.8, null, 0.0017)

    /**
     * Two configurations (tomcat, webflux) × 3 repetitions at 983-989 req/s; tomcat's first window [series], recorded
     * warming and flagged so; the others flat. The run's one comparison, tomcat against webflux, decided as it was then.
     */
    private fun run(series: List<Double?>): RunResult {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: r\napps: [{stack: tomcat}, {stack: webflux}]\nendpoints: [{kind: io, strategies: [completable-future], delay: 100ms}]\nrepetitions: 3", "r.yaml"))
        val cells = plan.cells.map { c ->
            val first = c.app.name == "tomcat" && c.repetition == 1
            val flat = List(60) { 986.0 }
            val window = if (first) warmingAsRecorded else WindowRecord("flat", 0, "flat", 5926.8)
            val flags = listOf(closedModel) + (if (first) listOf(Flag("warming", "the app's own ... (warming): ...", "throughput")) else emptyList()) +
                Flag("imprecise", "imprecise", "throughput")
            Fixtures.cell(c, throughput = 980.0 + 3 * c.repetition).copy(flags = flags).staged(resources = ResourceSummary(cpuShare = 0.18, serverPerSecond = if (first) series else flat), shape = window)
        }
        val decision = Fixtures.decision("tomcat vs webflux", cells.first().configKey, cells.last().configKey, 0.04, null, null, null, null, 2, 3,
            "undecided", false, "fewer than 3 repetitions a side", listOf("${cells.first().key}: flagged warming"), "throughput")
        return RunResult(run = Fixtures.info(cells.size).copy(status = RunStatus.COMPLETE), environment = Fixtures.environment(), cells = cells,
            decisions = listOf(decision))
    }

    @Test
    fun `a brief dip recorded as warming reads flat, its flag goes, and the comparison counts the cell again`() {
        val before = run(dip)
        val out = Reclassify.run(before)
        assertThat(out.changes).hasSize(1)
        val change = out.changes.single()
        assertThat(change.key).isEqualTo(before.cells.first().key)
        assertThat(change.from to change.to).isEqualTo("warming" to "flat")
        val cell = out.result.cells.first()
        assertThat(cell.window.shape!!.shape).isEqualTo("flat")
        assertThat(cell.window.shape!!.steadyFromSecond).isEqualTo(1)
        assertThat(cell.window.shape!!.reason).startsWith("from the second second on: 3 segments: 986 req/s for 29 s, then 883 req/s for 2 s")
        assertThat(cell.window.shape!!.reclassifiedFrom).isEqualTo("warming: from the second second on: 3 segments: ...")
        // every figure beside the shape is kept
        assertThat(cell.window.shape!!.roundTripsPerConnection).isEqualTo(5926.8)
        assertThat(cell.window.shape!!.precision).isEqualTo(0.0017)
        assertThat(cell.flags.map { it.code }).containsExactly("closed-model", "imprecise")
        assertThat(out.result.cells.drop(1)).isEqualTo(before.cells.drop(1))
        assertThat(out.same).isEqualTo(5)
        assertThat(out.without).isZero()
        val d = out.result.decisions.single()
        assertThat(d.decision.nA to d.decision.nB).isEqualTo(3 to 3)
        assertThat(d.leftOut).isEmpty()
        assertThat(d.decided).isTrue()
        assertThat(d.decision.relation).isEqualTo(Relation.SAME)
    }

    @Test
    fun `a window that warmed up stays warming, and a run with nothing to change is returned as it was`() {
        val before = run(climb).let { r -> r.copy(decisions = r.decisions.map { it.copy(rules = Flags.RULES) }) }
        val out = Reclassify.run(before)
        assertThat(out.changes).isEmpty()
        assertThat(out.same).isEqualTo(6)
        assertThat(out.result).isEqualTo(before)
    }

    @Test
    fun `a decision recorded under other rules of which windows count is decided again, though no shape changed`() {
        val before = run(climb)
        assertThat(before.decisions.single().rules).isNull()
        val out = Reclassify.run(before)
        assertThat(out.changes).isEmpty()
        val d = out.result.decisions.single()
        assertThat(d.rules).isEqualTo(Flags.RULES)
        // decided again by today's method: the warming window counted and read again without, each repetition of one JVM-less fixture its own process
        assertThat(d.decision.method).isEqualTo("welch-log-process-means")
        assertThat(d.leftOut).isEmpty()
        assertThat(d.decision.why).contains("without the 1 window(s) whose app was flagged (warming)")
        assertThat(out.result.cells).isEqualTo(before.cells)
    }

    @Test
    fun `the series is computed again from the cell's samples, so a window recorded from filled-in seconds reads as observed`() {
        // the app's counter read every 250 ms at a steady 986 req/s over a 51 s window, but the recorded series climbs
        // (as a series filled in across a long gap of readings could): the samples decide, and the series is replaced
        val samples = (-250L..51_250L step 250).map { t ->
            stackbench.runner.results.Sample(t, 5_000_000L + t, null, null, null, null, null, null, null, null, 986 * (t + 250) / 1000, 5_000_000L + t, null)
        }
        val before = run(climb).let { r -> r.copy(cells = r.cells.mapIndexed { i, c -> if (i == 0) c.staged(samples = samples) else c }) }
        val out = Reclassify.run(before)
        val change = out.changes.single()
        assertThat(change.from to change.to).isEqualTo("warming" to "flat")
        assertThat(out.result.cells.first().resources.summary!!.serverPerSecond).hasSize(climb.size).containsOnly(986.0)
        // cells without samples keep their recorded series
        assertThat(out.result.cells.drop(1)).isEqualTo(before.cells.drop(1))
    }

    @Test
    fun `a failed cell or one without a series has no window to classify`() {
        val before = run(dip)
        val cells = before.cells.toMutableList()
        cells[1] = cells[1].copy(status = CellStatus.FAILED)
        cells[2] = cells[2].staged(resources = null)
        val out = Reclassify.run(before.copy(cells = cells))
        assertThat(out.without).isEqualTo(2)
        assertThat(out.result.cells[1]).isEqualTo(cells[1])
        assertThat(out.result.cells[2]).isEqualTo(cells[2])
    }

    @Test
    fun `reclassify rewrites the folder, and --dry-run writes nothing`(@TempDir dir: Path) {
        ResultsStore(dir).write(run(dip))
        val json = Files.readString(dir.resolve("results.json"))

        val dry = cli("reclassify", dir.toString(), "--dry-run")
        assertThat(dry.first).isEqualTo(Exit.OK)
        assertThat(dry.second).contains("6 window(s) classified again, 1 changed shape, 5 kept it; 0 cell(s) without a window")
            .contains(": warming → flat (from the second second on: 3 segments: 986 req/s for 29 s")
            .contains("comparison tomcat vs webflux: undecided (2 and 3 repetitions counted) → same (3 and 3 repetitions counted)")
            .contains("--dry-run: nothing written")
        assertThat(Files.readString(dir.resolve("results.json"))).isEqualTo(json)

        val real = cli("reclassify", dir.toString())
        assertThat(real.first).isEqualTo(Exit.OK)
        assertThat(real.second).contains("wrote ").contains("report.html")
        val after = ResultsStore.read(dir)
        assertThat(after.cells.first().window.shape!!.shape).isEqualTo("flat")
        assertThat(after.cells.first().flags.map { it.code }).doesNotContain("warming")
        assertThat(dir.resolve("summary.md")).isRegularFile()
        // a second pass finds nothing left to change, and keeps the shape first recorded
        val again = cli("reclassify", dir.toString())
        assertThat(again.second).contains("0 changed shape")
        assertThat(ResultsStore.read(dir).cells.first().window.shape!!.reclassifiedFrom).startsWith("warming: ")
    }

    @Test
    fun `a published record keeps its form, results json gz and summary md rewritten and nothing beside them`(@TempDir dir: Path) {
        val published = Files.createDirectories(dir.resolve("docs/runs/event-loop"))
        PublishedRecord.write(run(dip), published)
        val before = Files.readAllBytes(published.resolve("results.json.gz"))

        val dry = cli("reclassify", published.toString(), "--dry-run")
        assertThat(dry.first).isEqualTo(Exit.OK)
        assertThat(dry.second).contains("1 changed shape").contains("--dry-run: nothing written")
        assertThat(Files.readAllBytes(published.resolve("results.json.gz"))).isEqualTo(before)

        val real = cli("reclassify", published.toString())
        assertThat(real.first).isEqualTo(Exit.OK)
        assertThat(real.second).contains("results.json.gz, summary.md; ./stackbench findings fills docs/findings.md")
        assertThat(Files.list(published).use { l -> l.map { it.fileName.toString() }.toList() }).containsExactlyInAnyOrder("results.json.gz", "summary.md")
        assertThat(ResultsStore.read(published).cells.first().window.shape!!.shape).isEqualTo("flat")
        assertThat(cli("reclassify", published.toString()).second).contains("0 changed shape")
    }

    @Test
    fun `a missing folder or a run still running is bad input naming it`(@TempDir dir: Path) {
        assertThat(cli("reclassify", dir.resolve("nope").toString()).first).isEqualTo(Exit.BAD_INPUT)
        ResultsStore(dir).write(run(dip).let { it.copy(run = it.run.copy(status = RunStatus.RUNNING)) })
        val running = cli("reclassify", dir.toString())
        assertThat(running.first).isEqualTo(Exit.BAD_INPUT)
        assertThat(running.third).contains("results.json belongs to a run still in progress")
    }

    private fun cli(vararg args: String): Triple<Int, String, String> = captured(*args).let { Triple(it.code, it.out, it.err) }
}
