package stackbench.runner.run

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Fixtures
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Path

class SuiteRunnerTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}, {stack: jetty}]\nendpoints: [{kind: cpu, strategies: [direct], limit: [100, 1000]}]", "t.yaml"))

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
