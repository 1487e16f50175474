package stackbench.runner.cell

import stackbench.runner.results.staged
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Flag
import stackbench.runner.results.RunResult
import stackbench.runner.results.SliceRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.util.Random
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class WarmupReplayTest {
    private fun warmup(endedBy: String, rate: (Int) -> Double, jit: Double = 0.005): WarmupRecord {
        val rng = Random(5)
        val slices = List(60) { t -> SliceRecord(t + 1.0, rate(t) * (1 + 0.03 * (2 * rng.nextDouble() - 1)), jit, 1.0) }
        return WarmupRecord(60.0, endedBy, null, null, slices)
    }

    private fun flag(code: String) = Flag(code, code, "throughput")

    /**
     * Four windows: a capped flat warm-up flagged `unsteady` alone; a capped falling one, `unsteady` alone; a capped flat
     * one whose JIT stayed at 5 % of the CPU, `unsteady` and `compiling`; a steady one, flagged `warming`. A fifth cell failed.
     */
    private fun run(): RunResult {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: r\napps: [{stack: tomcat}]\nendpoints: [{kind: io, strategies: [completable-future], delay: 100ms}]\nrepetitions: 5", "r.yaml"))
        val flat = { _: Int -> 29_500.0 }
        val records = listOf(
            warmup("cap", flat) to listOf(flag("unsteady")),
            warmup("cap", { t -> 3_000.0 * (1 - 0.4 * t / 60) }) to listOf(flag("unsteady")),
            warmup("cap", flat, jit = 0.05) to listOf(flag("unsteady"), flag("compiling")),
            warmup("steady", flat) to listOf(flag("warming")),
        )
        val cells = plan.cells.mapIndexed { i, c ->
            if (i < records.size) Fixtures.cell(c).copy(flags = records[i].second).staged(warmup = records[i].first)
            else Fixtures.cell(c, status = CellStatus.FAILED, reason = "exited")
        }
        return RunResult(run = Fixtures.info(cells.size), environment = Fixtures.environment(), cells = cells)
    }

    @Test
    fun `a flat capped warm-up is taken back, a falling one or one with a busy JIT is not`() {
        val r = run()
        assertThat(WarmupReplay.replay(r.cells[0])).isNotEqualTo(WarmupReplay.Replayed.STILL_CAPPED)
        assertThat(WarmupReplay.replay(r.cells[1])).isEqualTo(WarmupReplay.Replayed.STILL_CAPPED)
        assertThat(WarmupReplay.replay(r.cells[2])).isEqualTo(WarmupReplay.Replayed.STILL_CAPPED)
        val o = WarmupReplay.of(r)
        assertThat(o.windows).isEqualTo(4)
        assertThat(o.warmups).isEqualTo(4)
        assertThat(o.capBefore).isEqualTo(3)
        assertThat(o.endedEarlier + o.flatAtCap).isEqualTo(1)
        assertThat(o.leftOutBefore).isEqualTo(4)
        // only the flat one's window comes back: the falling one stays unsteady, the third is compiling, the fourth warming
        assertThat(o.leftOutAfter).isEqualTo(3)
        assertThat(o.unsteadyAlone).isEqualTo(2)
        assertThat(o.cappedClasses).containsEntry("falling", 1).containsEntry("settled", 2)
    }
}
