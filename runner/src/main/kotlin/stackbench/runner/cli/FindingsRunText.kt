package stackbench.runner.cli

import stackbench.runner.findings.FindingsPlan
import stackbench.runner.findings.RunFocus
import stackbench.runner.plan.Plan
import stackbench.runner.results.CellStatus
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import stackbench.runner.cell.ConsoleProgress
import stackbench.runner.yaml.Units
import java.time.Duration
import java.util.Locale

/** What `findings-run` prints: the plan of each run (all of it with --dry-run), the total, and how each run ended. Pure. */
object FindingsRunText {

    /**
     * How one run ended: [line] says it in words; [complete] when every planned cell ran (some may have failed, as some
     * fail by design); [ok] when complete with no failed cell, not when it could not run, was cut short, or a cell failed.
     */
    data class Outcome(val run: String, val took: Duration, val line: String, val ok: Boolean, val complete: Boolean = ok)

    /** A run's time for its until-decided rounds: --budget when given, else its suite's own `until-decided`, else [DEFAULT_BUDGET]. */
    fun budget(focus: RunFocus, given: Duration?): Duration = given ?: focus.suite.untilDecided ?: DEFAULT_BUDGET

    val DEFAULT_BUDGET: Duration = Duration.ofMinutes(60)

    fun header(plan: FindingsPlan, ids: List<String>, claims: String, repetitions: String, scale: Double, given: Duration?): String =
        "findings-run: ${plan.runs.size} run(s) for ${if (ids.isEmpty()) "every claim of $claims" else ids.joinToString()}; " +
            "$repetitions at scale ${number(scale)}, then rounds until decided for at most " +
            (given?.let { "${Units.formatDuration(it)} a run (--budget)" }
                ?: "each suite's own `until-decided` (${Units.formatDuration(DEFAULT_BUDGET)} where a suite sets none)")

    /** A run's plan: its first line the counts and the estimate, then its configurations and what becomes of each row. */
    fun run(focus: RunFocus, plan: Plan, budget: Duration): String = buildString {
        val driving = focus.driven.isNotEmpty()
        val processes = plan.cells.groupBy { it.configKey }.values.maxOfOrNull { cells -> cells.map { it.process }.distinct().size } ?: 0
        val windows = plan.cells.groupBy { it.configKey to it.process }.values.maxOfOrNull { it.size } ?: 0
        append("${focus.run} (${focus.suite.source}): ${focus.configs.size} configurations × $processes processes × $windows window(s) a process = " +
            "${plan.cells.size} cells, estimated ${time(plan.estimatedDuration)}")
        // K, the looks the budget buys at the plan's estimate of a round, fixed before the run as the run fixes it
        appendLine(if (driving) " + up to ${time(budget)} until decided (${stackbench.runner.run.Rounds.maxLooks(plan, budget)} look(s))" else "; no comparison to drive")
        appendLine("  configurations (${focus.configs.size}):")
        focus.configs.forEach { appendLine("    $it") }
        appendLine("  driven until decided (${focus.driven.size}):")
        focus.driven.forEach { r -> appendLine("    ${r.name} (${r.comparison.figure.id}, ±${percent(r.comparison.threshold)})") }
        if (focus.acrossRuns.isNotEmpty()) {
            appendLine("  left to `findings`, their sides in two runs (${focus.acrossRuns.size}):")
            focus.acrossRuns.forEach { r -> appendLine("    ${r.name} (a in ${r.row.a.run}, b in ${r.row.b?.run})") }
        }
        if (focus.measuredOnly.isNotEmpty()) {
            appendLine("  measured, not compared (${focus.measuredOnly.size}):")
            focus.measuredOnly.forEach { r -> appendLine("    ${r.name} (${r.uncompared ?: "one side selected"})") }
        }
        if (focus.unmeasured.isNotEmpty()) {
            appendLine("  not measured, rows of findings.md's tables outside the selection (${focus.unmeasured.size}; `findings` needs their cells: " +
                "name the run to measure them): " + focus.unmeasured.groupBy { it.comparison.id }.entries.joinToString { (id, rows) -> "$id ×${rows.size}" })
        }
    }.trimEnd()

    /** The whole: cells and time of the planned repetitions, and the budget of the runs that have something to drive. */
    fun total(plan: FindingsPlan, plans: Map<String, Plan>, given: Duration?): String {
        val planned = plan.runs.fold(Duration.ZERO) { acc, r -> acc + plans.getValue(r.run).estimatedDuration }
        val drivingRuns = plan.runs.filter { it.driven.isNotEmpty() }
        val driving = drivingRuns.size
        val rounds = drivingRuns.fold(Duration.ZERO) { acc, r -> acc + budget(r, given) }
        val each = drivingRuns.map { budget(it, given) }.distinct().singleOrNull()?.let { "$driving run(s) × ${time(it)}" } ?: "$driving run(s), each its own"
        return "total: ${plan.runs.size} run(s), ${plan.runs.sumOf { it.configs.size }} configurations, ${plans.values.sumOf { it.cells.size }} cells, " +
            "${plan.runs.sumOf { it.driven.size }} comparisons driven, ${plan.runs.flatMap { it.acrossRuns }.distinct().size} left to `findings`; " +
            "estimated ${time(planned)} for the planned repetitions + up to ${time(rounds)} until decided ($each) = ${time(planned + rounds)} at most"
    }

    /** A finished run: its machine time, how many of its driven comparisons were decided, its failed cells. */
    fun outcome(run: String, result: RunResult, took: Duration): Outcome {
        val failed = result.cells.count { it.status == CellStatus.FAILED }
        val status = result.run.status
        val line = "took ${time(took)} of machine time; ${result.decisions.count { it.decided }} of ${result.decisions.size} driven comparisons decided" +
            (if (failed > 0) "; $failed cell(s) failed" else "") + (if (status != RunStatus.COMPLETE) "; ${status.name.lowercase()}" else "")
        return Outcome(run, took, line, ok = failed == 0 && status == RunStatus.COMPLETE, complete = status == RunStatus.COMPLETE)
    }

    /** The dry run's line under a run whose apps cannot start as the machine is now. */
    fun cannotStart(why: List<String>): String = "  cannot start: " + why.joinToString("; ")

    /** Why `findings-run` starts nothing: the runs that cannot start and what stops each, and how to run the others. */
    fun refused(cannotStart: Map<String, List<String>>, runs: List<String>): String = buildString {
        append("${cannotStart.size} of ${runs.size} run(s) cannot start; nothing was run:")
        cannotStart.forEach { (run, why) -> why.forEach { append("\n  $run: $it") } }
        val others = runs.filter { it !in cannotStart }
        if (others.isNotEmpty()) append("\nfix that first, or name the others to run them now: ${others.joinToString(" ")}")
    }

    /** The closing lines: how many runs are complete, how many of those had failed cells (a run's table says which), and the machine time. */
    fun outcomes(outcomes: List<Outcome>): String {
        val complete = outcomes.count { it.complete }
        val withFailures = outcomes.count { it.complete && !it.ok }
        val failures = if (withFailures > 0) " ($withFailures with failed cells: a cell that fails by design is one too; see its line)" else ""
        return "findings-run: $complete of ${outcomes.size} run(s) complete$failures, in ${time(outcomes.fold(Duration.ZERO) { acc, o -> acc + o.took })}\n" +
            SummaryTable.table(listOf("run", "outcome"), outcomes.map { listOf(it.run, it.line) })
    }

    private fun time(d: Duration) = ConsoleProgress.format(d)
    private fun percent(t: Double) = String.format(Locale.ROOT, if (t * 100 == Math.rint(t * 100)) "%.0f %%" else "%.1f %%", t * 100)
    private fun number(x: Double) = if (x == Math.rint(x)) x.toLong().toString() else x.toString()
}
