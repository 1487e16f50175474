package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.report.ReportFixtures
import stackbench.runner.results.CellStatus
import stackbench.runner.results.RunStatus
import java.time.Duration

class FindingsRunTextTest {
    private val base = ReportFixtures.load(ReportFixtures.SWEEP)

    @Test
    fun `a complete run with failed cells is counted complete, said to have failed cells, and not ok`() {
        val cells = base.cells.mapIndexed { i, c -> if (i == 0) c.copy(status = CellStatus.FAILED) else c.copy(status = CellStatus.OK) }
        val failing = FindingsRunText.outcome("clients", base.copy(run = base.run.copy(status = RunStatus.COMPLETE), cells = cells), Duration.ofMinutes(94))
        assertThat(failing.complete).isTrue()
        assertThat(failing.ok).isFalse()
        assertThat(failing.line).contains("; 1 cell(s) failed")

        val clean = FindingsRunText.outcome("light", base.copy(run = base.run.copy(status = RunStatus.COMPLETE), cells = cells.map { it.copy(status = CellStatus.OK) }), Duration.ofMinutes(56))
        assertThat(clean.ok).isTrue()
        val notRun = FindingsRunText.Outcome("jdk", Duration.ZERO, "not run: no JDK 21", ok = false)
        assertThat(notRun.complete).isFalse()

        val text = FindingsRunText.outcomes(listOf(failing, clean, notRun))
        assertThat(text.lines().first()).startsWith("findings-run: 2 of 3 run(s) complete (1 with failed cells: a cell that fails by design is one too; see its line), in ")
        assertThat(FindingsRunText.outcomes(listOf(clean)).lines().first()).startsWith("findings-run: 1 of 1 run(s) complete, in ")
    }
}
