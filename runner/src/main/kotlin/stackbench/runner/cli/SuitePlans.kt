package stackbench.runner.cli

import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.findings.Selector
import stackbench.runner.plan.Cell
import stackbench.runner.plan.Planner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import stackbench.runner.suite.SuiteText
import java.nio.file.Files
import java.nio.file.Path

/**
 * The cells each claims run's suite ([suites]`/<run>.yaml`) plans today, each suite read once: whether a row's side is
 * one of them. `findings` asks it of a side its published run has no cell for, so that a row written into
 * docs/claims.yaml before the run's re-run waits for that run ("not run yet") instead of failing as a typo would.
 */
class SuitePlans(
    private val suites: Path,
    private val parser: SuiteParser = SuiteParser(MachineFacts(EnvironmentProbe.machineCpus()), home = suites.toAbsolutePath().parent),
) {
    private val plans = mutableMapOf<String, List<Cell>>()

    fun plans(side: Selector): Boolean = cells(side.run).any { side.matches(it) }

    /** A claims run written before it ran: its suite is here, its folder in [runs] is not yet. */
    fun unpublished(run: String, runs: Path): Boolean = !Files.exists(runs.resolve(run)) && Files.isRegularFile(suites.resolve("$run.yaml"))

    private fun cells(run: String): List<Cell> = plans.getOrPut(run) {
        val file = suites.resolve("$run.yaml")
        if (!Files.isRegularFile(file)) emptyList()
        // a suite that does not read plans nothing: the row's missing cell stays a problem, as a typo's would
        else runCatching { Planner.plan(parser.parse(SuiteText.read(file, "suites/$run.yaml"), "suites/$run.yaml"), 1.0, 1).cells }.getOrDefault(emptyList())
    }
}
