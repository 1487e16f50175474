package stackbench.runner.run

import stackbench.runner.plan.Cell
import stackbench.runner.plan.Estimates
import stackbench.runner.plan.Plan
import stackbench.runner.results.CellResult
import stackbench.runner.suite.Ranges
import stackbench.runner.suite.Restart
import java.time.Duration

/**
 * The rounds of `--until-decided`, pure: how many looks at the data a run may take (K, fixed before the first look
 * from the budget and the plan's estimate) and the cells of one more round (one more app process per side of every
 * open comparison, each with the suite's windows per process).
 */
object Rounds {
    /**
     * K: the first look after the planned cells, plus the rounds that fit [budget] at the plan's estimate of a round
     * in which every comparison is still open (so K never depends on the data), at most [Ranges.MAX_LOOKS].
     * Stopping before look K (a budget spent faster than estimated, every comparison decided) only lowers the error.
     */
    fun maxLooks(plan: Plan, budget: Duration): Int {
        val configs = plan.suite.comparisons.flatMap { listOf(it.a, it.b) }.toSet()
        val round = estimate(cells(plan, configs, emptyList(), 0), plan)
        if (round.isZero) return 1
        return (1 + budget.toMillis() / round.toMillis()).toInt().coerceIn(1, Ranges.MAX_LOOKS)
    }

    /** The plan's estimate of [cells]: each cell, and the priming of every new process among them. */
    fun estimate(cells: List<Cell>, plan: Plan): Duration =
        cells.fold(Duration.ZERO) { acc, c -> acc + Estimates.cell(c) } + Estimates.priming(cells, plan.suite.restart == Restart.APP)

    /**
     * One more round for the configurations [open]: with `restart: app`, a new process of each of their apps (numbered
     * after every process so far) holding the plan's windows per process, interleaved; with `restart: cell`, one more
     * cell (a process of its own) each. Repetitions count on from the highest so far; indexes from [lastIndex].
     */
    fun cells(plan: Plan, open: Set<String>, done: List<CellResult>, lastIndex: Int): List<Cell> {
        val templates = plan.cells.filter { it.configKey in open }.distinctBy { it.configKey }
        val keptApps = plan.suite.restart == Restart.APP
        val lastRep = maxOf(plan.cells.maxOfOrNull { it.repetition } ?: 0, done.maxOfOrNull { it.repetition } ?: 0)
        val nextProcess = 1 + maxOf(plan.cells.maxOfOrNull { it.process } ?: 0, done.mapNotNull { processNumber(it) }.maxOrNull() ?: 0)
        val windows = if (keptApps) plan.windows else 1
        var index = lastIndex
        return (1..windows).flatMap { w ->
            templates.map { t ->
                val rep = lastRep + w
                t.copy(index = ++index, repetition = rep, process = if (keptApps) nextProcess else rep, window = if (keptApps) w else 1)
            }
        }
    }

    /** The process number of a recorded cell (`tomcat-platform#2` → 2), or null before processes were recorded. */
    fun processNumber(cell: CellResult): Int? = cell.process?.substringAfterLast('#')?.toIntOrNull()
}
