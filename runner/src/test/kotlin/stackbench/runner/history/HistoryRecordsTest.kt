package stackbench.runner.history

import stackbench.runner.results.staged
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.gate.GateFixtures
import stackbench.runner.gate.GateFixtures.PLATFORM
import stackbench.runner.results.Ceiling
import stackbench.runner.results.Flag

class HistoryRecordsTest {
    @Test
    fun `a window of a slow host counts for the history's throughput at its Little's-law ceiling, as the decisions count it, and never for its p99`() {
        val run = GateFixtures.run("t-1", "2026-11-27T01:00:00Z")
        val unsteady = Flag("host-slow", "the host ran 30 % slower than its pace", "throughput")
        fun flagged(efficiency: Double, law: String = "Little's law") = run.copy(cells = run.cells.map { c ->
            c.copy(flags = listOf(unsteady)).staged(ceiling = Ceiling(law, c.window.measured!!.throughput / efficiency, "test", efficiency))
        })
        val atWait = HistoryRecords.cells(flagged(0.98)).single { it.configKey == PLATFORM }
        assertThat(atWait.throughput).isNotNull()
        assertThat(atWait.processes).isEqualTo(3)
        assertThat(atWait.p99).`as`("a latency of a window the host took CPU from").isNull()
        // below the ceiling's slack, or at a CPU-time ceiling, the slow host may have held the rate down: nothing counts
        assertThat(HistoryRecords.cells(flagged(0.90)).single { it.configKey == PLATFORM }.throughput).isNull()
        assertThat(HistoryRecords.cells(flagged(0.99, "CPU time")).single { it.configKey == PLATFORM }.windows).isZero()
    }

    @Test
    fun `the apps' JDK is the run's, or each app's that names one as its JVM reported it, so that a moved jdk shows as a change`() {
        val run = GateFixtures.run("t-1", "2026-11-27T01:00:00Z")
        assertThat(HistoryRecords.run(run, "/r").appJdk).isEqualTo(run.environment.appJdk)
        fun named(version: String) = run.copy(cells = run.cells.map { c ->
            if (c.configKey == PLATFORM) c.staged(runtime = stackbench.runner.results.RuntimeRecord(requested = "21", version = version, feature = 21)) else c
        })
        val before = HistoryRecords.run(named("21.0.8+9-LTS"), "/r")
        assertThat(before.appJdk).startsWith("${run.cells.first { it.configKey == PLATFORM }.app.name}: 21.0.8+9-LTS; the others: ")
        val after = HistoryRecords.run(named("21.0.9+10-LTS").copy(run = run.run.copy(id = "t-2")), "/r")
        val changes = HistoryViews.environment(listOf(before, after))
        assertThat(changes.map { it.what }).containsExactly("app JDK")
        assertThat(changes.single().after).contains("21.0.9+10-LTS")
    }
}
