package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.plan.Planner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Files
import java.nio.file.Path

class ResultsStoreTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}, {stack: webflux}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]", "t.yaml"))
    private val result = RunResult(run = Fixtures.info(2), environment = Fixtures.environment(),
        cells = listOf(Fixtures.cell(plan.cells[0]), Fixtures.cell(plan.cells[1], CellStatus.FAILED, reason = "verification failed: \"x\", y")))

    @Test
    fun `a written run reads back equal, with computed figures in the JSON and absent ones left out`(@TempDir dir: Path) {
        ResultsStore(dir).write(result)
        assertThat(ResultsStore.read(dir)).isEqualTo(result)
        assertThat(ResultsStore.read(dir.resolve("results.json"))).isEqualTo(result)
        val json = Files.readString(dir.resolve("results.json"))
        assertThat(json).contains("\"errorRate\"", "\"outsideLoadMs\" : 10300", "\"schema\" : \"$SCHEMA\"")
        assertThat(json).doesNotContain("\"idle\"", ": null")
        assertThat(dir.toFile().list()).containsExactlyInAnyOrder("results.json", "results.csv")
    }

    @Test
    fun `a folder holding only a compressed record reads it`(@TempDir dir: Path) {
        ResultsStore(dir).write(result)
        java.util.zip.GZIPOutputStream(Files.newOutputStream(dir.resolve("results.json.gz"))).use { it.write(Files.readAllBytes(dir.resolve("results.json"))) }
        Files.delete(dir.resolve("results.json"))
        assertThat(ResultsStore.read(dir)).isEqualTo(result)
    }

    @Test
    fun `the csv has a header and one row per cell, quoting what needs it`(@TempDir dir: Path) {
        ResultsStore(dir).write(result)
        val lines = Files.readAllLines(dir.resolve("results.csv"))
        assertThat(lines).hasSize(3)
        assertThat(lines[0]).startsWith("index,key,status,app,").contains(",errorRate,aborted,", ",startupMs,hostPace,")
        assertThat(lines[1]).contains("tomcat", ",OK,", ",1000.0,")
        assertThat(lines[2]).contains(",FAILED,").endsWith("\"verification failed: \"\"x\"\", y\"")
    }

    @Test
    fun `a folder without results, a file of another schema and broken JSON are refused by name`(@TempDir dir: Path) {
        assertThatThrownBy { ResultsStore.read(dir) }.isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageContaining("has no results.json")
        Files.writeString(dir.resolve("results.json"), "{\"schema\": \"other/2\"}")
        assertThatThrownBy { ResultsStore.read(dir) }.hasMessageContaining("schema \"other/2\"")
        Files.writeString(dir.resolve("results.json"), "{\"schema\": ")
        assertThatThrownBy { ResultsStore.read(dir) }.hasMessageContaining("is not JSON")
    }

    @Test
    fun `flags name what they affect and stay quiet on a clean open-model cell`() {
        val clean = Fixtures.load(500.0, model = "open")
        assertThat(Flags.of(clean, ResourceSummary(driverCpuShare = 0.3, periods = 100, throttledPeriods = 0), false, "cgroup-v1")).isEmpty()
        val flags = Flags.of(clean.copy(latencyCorrected = false, errors = mapOf("timeout" to 5)),
            ResourceSummary(driverCpuShare = 0.95, periods = 100, throttledPeriods = 40, throttledMs = 800.0, oomKills = 1), true, "taskset")
        assertThat(flags.map { it.code }).containsExactly("errors", "closed-model", "client-bound", "throttled", "oom", "shared-cpus", "no-cgroup")
        assertThat(flags.first { it.code == "throttled" }.message).contains("40 of 100")
        assertThat(flags.first { it.code == "closed-model" }.affects).isEqualTo("latency")
    }

    @Test
    fun `a warm-up that reached its cap, a window that was not flat or held few round trips, and a beaten ceiling are flagged`() {
        val clean = Fixtures.load(500.0, model = "open")
        val capped = WarmupRecord(20.0, "cap", null, null, listOf(SliceRecord(19.0, 692.0, 0.04)))
        assertThat(Flags.of(clean, null, false, "cgroup-v1", warmup = capped).single().message)
            .contains("reached its cap (20 s)").contains("692 req/s").contains("4.0 % of its CPU")
        assertThat(Flags.of(clean, null, false, "cgroup-v1", warmup = capped.copy(endedBy = "steady"))).isEmpty()

        val warming = WindowRecord("warming", 3, "2 segments", roundTripsPerConnection = 3.2)
        assertThat(Flags.of(clean, null, false, "cgroup-v1", window = warming).map { it.code }).containsExactly("warming", "few-round-trips")
        assertThat(Flags.of(clean, null, false, "cgroup-v1", window = WindowRecord("flat", 0, "1 segment", 25.0))).isEmpty()
        // 400 connections on 64 Dispatchers.IO threads sleeping 0.5 s: 10 round trips of 3 s each in 30 s, but 60 waves of
        // 64 answers, so the window's cut moves the count by 1/60 at most
        val behindPool = WindowRecord("flat", 0, "1 segment", 10.0, waves = 60.0)
        assertThat(Flags.of(clean, null, false, "cgroup-v1", window = behindPool)).isEmpty()
        assertThat(Flags.of(clean, null, false, "cgroup-v1", window = behindPool.copy(waves = 12.0)).single().message)
            .contains("10.0 round trips").contains("12.0 waves of its binding concurrency limit")
        // a counted run's flag says why its few round trips are the published measure, not a cut among waves
        assertThat(Flags.of(clean, null, false, "cgroup-v1", window = warming.copy(shape = "flat"), counted = 200).single().message)
            .contains("3.2 round trips").contains("counted run of 200 requests").doesNotContain("where the window cuts")
        // a warm-up that ended on light work settled: no flag
        assertThat(Flags.of(clean, null, false, "cgroup-v1", warmup = capped.copy(endedBy = "light"))).isEmpty()

        val ceiling = Ceiling("CPU time", 100.0, "1 CPU allotted ÷ 10 ms", efficiency = 1.06)
        assertThat(Flags.of(clean, null, false, "cgroup-v1", ceiling = ceiling).single().code).isEqualTo("ceiling-defect")
        assertThat(Flags.of(clean, null, false, "cgroup-v1", ceiling = ceiling.copy(efficiency = 1.05))).isEmpty()
        assertThat(Flags.DISQUALIFYING).contains("warming", "few-round-trips", "ceiling-defect", "unsteady")
    }

    @Test
    fun `a window too short for its own noise is flagged imprecise, and says how much longer would do`() {
        val clean = Fixtures.load(500.0, model = "open")
        val noisy = WindowRecord("flat", 0, "1 segment", precision = 0.10, autocorrelationSeconds = 3.2)
        val flag = Flags.of(clean, null, false, "cgroup-v1", window = noisy).single()
        assertThat(flag.code).isEqualTo("imprecise")
        assertThat(flag.message).contains("±10.0 %").contains("3.2 s").contains("4× as long")
        assertThat(Flags.of(clean, null, false, "cgroup-v1", window = noisy.copy(precision = 0.05))).isEmpty()
        // the repetitions' interval already carries a window's own noise: imprecise informs, it does not disqualify
        assertThat(Flags.DISQUALIFYING).doesNotContain("imprecise")
    }
}
