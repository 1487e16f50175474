package stackbench.runner.profiler

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.report.ReportFixtures
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Json
import stackbench.runner.results.ProbeRecord

class ProfileOverheadTest {
    private val base = ReportFixtures.load(ReportFixtures.SWEEP)
    private val template = base.cells.first()

    private fun cell(config: String, mode: String?, status: CellStatus = CellStatus.OK): CellResult = template.copy(
        configKey = config, key = "$config/r1", status = status,
        probes = if (mode == null) emptyMap() else mapOf("profile" to ProbeRecord(details = Json.mapper.readTree("""{"mode":"$mode"}"""))),
    )

    private fun decision(name: String, a: String, b: String, ratio: Double, relation: String = "same") =
        DecisionRecord(name, a, b, 0.05, ratio, ratio - 0.02, ratio + 0.02, null, 3, 3, relation, relation != "undecided", "why")

    @Test
    fun `a profiled side against the same configuration unprofiled gives that mode's cost, any other comparison nothing`() {
        val run = base.copy(
            cells = listOf(cell("cpu/noop/c10", "cpu"), cell("cpu/noop/c10", "cpu"), cell("none/noop/c10", null), cell("none/noop/c10", null),
                cell("wall/noop/c10", "wall"), cell("mixed/noop/c10", "cpu"), cell("mixed/noop/c10", "alloc"), cell("lock/noop/c10", "lock"),
                cell("lock/noop/c10", null, CellStatus.FAILED)),
            decisions = listOf(
                decision("cpu vs none", "cpu/noop/c10", "none/noop/c10", 0.98),
                decision("cpu vs none again", "cpu/noop/c10", "none/noop/c10", 0.90, "lower"),
                decision("none vs cpu", "none/noop/c10", "cpu/noop/c10", 1.02),
                decision("wall vs cpu", "wall/noop/c10", "cpu/noop/c10", 0.97),
                decision("mixed vs none", "mixed/noop/c10", "none/noop/c10", 0.95),
                decision("lock vs none", "lock/noop/c10", "none/noop/c10", 0.99),
            ),
        )
        val records = ProfileOverhead.of(run)
        assertThat(records.map { it.mode to it.comparison }).containsExactly("cpu" to "cpu vs none", "lock" to "lock vs none")
        val cpu = records.first()
        assertThat(cpu.ratio).isEqualTo(0.98)
        assertThat(cpu.low).isEqualTo(0.96)
        assertThat(cpu.relation).isEqualTo("same")
        assertThat(cpu.run).isEqualTo(base.run.id)
        assertThat(cpu.hostname).isEqualTo(base.environment.hostname)
        assertThat(ProfileOverhead.of(base)).isEmpty()
    }
}
