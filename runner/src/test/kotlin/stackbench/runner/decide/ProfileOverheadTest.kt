package stackbench.runner.decide

import stackbench.runner.results.Fixtures
import stackbench.runner.results.staged
import stackbench.runner.report.ReportFixtures
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Json
import stackbench.runner.results.ProbeRecord
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class ProfileOverheadTest {
    private val base = ReportFixtures.load(ReportFixtures.SWEEP)
    private val template = base.cells.first()

    private fun cell(config: String, mode: String?, status: CellStatus = CellStatus.OK): CellResult = template.copy(
        configKey = config, key = "$config/r1", status = status,
        probes = if (mode == null) emptyMap() else mapOf("profile" to ProbeRecord(details = Json.mapper.readTree("""{"mode":"$mode"}"""))),
    )

    private fun decision(name: String, a: String, b: String, ratio: Double, relation: String = "same") =
        Fixtures.decision(name, a, b, 0.05, ratio, ratio - 0.02, ratio + 0.02, null, 3, 3, relation, relation != "undecided", "why")

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

    /** Window [rep] of process [process] of an alternating configuration: profiled in [mode] or not, at [rate] req/s. */
    private fun window(process: Int, rep: Int, mode: String?, rate: Double, flags: List<stackbench.runner.results.Flag> = emptyList(), status: CellStatus = CellStatus.OK) =
        cell("alt/cpu/c10", mode, status).copy(key = "alt/cpu/c10/r$rep", repetition = rep, process = "alt#$process", appStartedBy = "alt/cpu/c10/r${(rep - 1) / 5 * 5 + 1}",
            flags = flags).staged(measured = template.window.measured!!.copy(throughput = rate))

    @Test
    fun `alternating windows - each profiled window against its unprofiled neighbours in its own process`() {
        // two processes 20 % apart, each drifting up 1 % a window; the profiled windows cost 4 % of what their neighbours read
        fun process(p: Int, level: Double) = (1..5).map { w ->
            val base = level * (1 + 0.01 * w)
            if (w % 2 == 0) window(p, (p - 1) * 5 + w, "cpu", base * 0.96) else window(p, (p - 1) * 5 + w, null, base)
        }
        // a little noise, so that the pairs have a spread: the third pair 1 % lower still
        val cells = process(1, 1000.0) + process(2, 1200.0).map { if (it.repetition == 9) it.staged(measured = it.window.measured!!.copy(throughput = it.window.measured!!.throughput * 0.99)) else it }
        val record = ProfileOverhead.of(base.copy(cells = cells, decisions = emptyList())).single()
        assertThat(record.mode).isEqualTo("cpu")
        assertThat(record.design).isEqualTo(ProfileOverhead.ALTERNATING)
        assertThat(record.pairs).isEqualTo(4)
        assertThat(record.processes).isEqualTo(2)
        // the drift cancels between the neighbours: 0.96 each, 0.9504 once; the geometric mean of the four
        assertThat(record.ratio!!).isCloseTo(Math.pow(0.96 * 0.96 * 0.96 * 0.9504, 0.25), org.assertj.core.api.Assertions.within(0.0005))
        // log ratios a, a, a, a + ln 0.99: s = |ln 0.99| / 2, se = s / √4 · √(4/3) for the shared neighbours, t(3) = 3.182:
        // [0.9488, 0.9665], just below the ±5 % band's lower edge, so not decided
        assertThat(record.low!!).isCloseTo(0.9488, org.assertj.core.api.Assertions.within(0.0005))
        assertThat(record.high!!).isCloseTo(0.9665, org.assertj.core.api.Assertions.within(0.0005))
        assertThat(record.relation).isEqualTo("undecided")
        assertThat(record.why).contains("crosses an edge of the band [0.95, 1.05]")
    }

    @Test
    fun `a flagged or failed window drops out of its pairs, and a profiled window with no neighbour that counts makes none`() {
        val hostSlow = stackbench.runner.results.Flag("host-slow", "the machine was slow", "throughput")
        val cells = listOf(
            window(1, 1, null, 1000.0), window(1, 2, "wall", 900.0), window(1, 3, null, 1000.0, flags = listOf(hostSlow)),
            window(1, 4, "wall", 880.0), window(1, 5, null, 0.0, status = CellStatus.FAILED),
        )
        val record = ProfileOverhead.alternating(base.copy(cells = cells, decisions = emptyList())).single()
        // r2 against r1 only; r4 has no neighbour that counts
        assertThat(record.pairs).isEqualTo(1)
        assertThat(record.ratio).isCloseTo(0.9, org.assertj.core.api.Assertions.within(1e-9))
        assertThat(record.low).isNull()
        assertThat(record.decided).isFalse()
        assertThat(record.relation).isEqualTo("undecided")
    }

    @Test
    fun `a comparison stands in for an alternating measurement without a pair, and one with pairs wins over it`() {
        val noPair = listOf(window(1, 1, null, 1000.0, status = CellStatus.FAILED), window(1, 2, "cpu", 900.0))
        val compared = listOf(cell("cpu/noop/c10", "cpu"), cell("none/noop/c10", null))
        val cmp = decision("cpu vs none", "cpu/noop/c10", "none/noop/c10", 0.98)
        assertThat(ProfileOverhead.of(base.copy(cells = noPair + compared, decisions = listOf(cmp))).single().design).isEqualTo(ProfileOverhead.PROCESSES)
        assertThat(ProfileOverhead.of(base.copy(cells = noPair, decisions = emptyList())).single().pairs).isZero()
        val pairs = listOf(window(1, 1, null, 1000.0), window(1, 2, "cpu", 970.0), window(1, 3, null, 1000.0))
        assertThat(ProfileOverhead.of(base.copy(cells = pairs + compared, decisions = listOf(cmp))).single().design).isEqualTo(ProfileOverhead.ALTERNATING)
    }
}
