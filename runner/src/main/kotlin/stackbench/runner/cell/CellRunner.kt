package stackbench.runner.cell

import stackbench.runner.host.Placement
import stackbench.runner.plan.Cell
import stackbench.runner.results.CellResult
import stackbench.runner.sut.AppStartException
import java.nio.file.Files
import java.nio.file.Path

/** What one cell needs from the run around it. */
data class CellContext(
    val runDir: Path,
    val runId: String,
    /** Names this runner's cgroups: `sb<pid>`, so a later run can tell whose groups are stale. */
    val groupPrefix: String = "sb${ProcessHandle.current().pid()}",
    /** The downstream service's URL, started for this cell's placement if its endpoint needs it. */
    val downstreamUrl: (Cell, Placement) -> String?,
    val listener: ProgressListener,
    val stopping: () -> Boolean,
    /** With `restart: app`, where a started app waits for the next cell of its configuration; null: a fresh app per cell. */
    val sessions: AppSessions? = null,
    /** The run's calmest machine pace so far, which each window's pace is placed against. */
    val pace: stackbench.runner.results.HostPace = stackbench.runner.results.HostPace(),
    /** The run's measurement probes, at every measured window's edges. */
    val probes: WindowProbes = WindowProbes.NONE,
)

/**
 * Runs one cell the same way every time: its [CellSteps] in order (start, verify, warm up, quiet, load, probe),
 * until one ends the cell early or throws, and then the stop step, however they ended. A failure is recorded with
 * its reason and the app's log tail; whatever the steps measured before it is kept ([CellRecord]).
 */
class CellRunner(
    private val lab: Lab,
    private val steps: CellSteps = CellSteps.of(lab),
    private val clock: Ticker = Ticker.SYSTEM,
) {
    fun run(cell: Cell, ctx: CellContext): CellResult {
        val dir = ctx.runDir.resolve("cells").resolve(cell.folder)
        Files.createDirectories(dir)
        val record = CellRecord(cell, lab, ctx.runDir, dir)
        val placement = Placement.of(cell.profile, lab.machineCpus)
        val run = CellRun(lab, cell, ctx, dir, record, placement, PhaseClock(clock))
        val outcome: Outcome = try {
            steps.steps.firstNotNullOfOrNull { it.run(run) } ?: Outcome.Ok
        } catch (e: InterruptedException) {
            Outcome.Interrupted
        } catch (e: AppStartException) {
            Outcome.Failed(e.message!!, e.logTail)
        } catch (e: DriverFailedException) {
            when {
                ctx.stopping() -> Outcome.Interrupted
                // a load generator that failed against an app that is gone failed because it was gone: the app's exit is the reason
                run.app?.isAlive() == false -> run.exited(null).let { it.copy(reason = "${it.reason}; then ${e.message}", logTail = e.logTail + it.logTail) }
                else -> Outcome.Failed(e.message!!, e.logTail + (run.app?.logTail(20) ?: emptyList()))
            }
        } catch (e: Exception) {
            if (ctx.stopping()) Outcome.Interrupted else Outcome.Failed("${e::class.simpleName}: ${e.message}", run.app?.logTail() ?: emptyList())
        } finally {
            steps.stop.run(run)
        }
        return record.build(outcome, run.clock, placement)
    }
}
