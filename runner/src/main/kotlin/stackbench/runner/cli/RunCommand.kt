package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.optional
import com.github.ajalt.clikt.parameters.options.convert
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.split
import com.github.ajalt.clikt.parameters.types.choice
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.Ranges
import stackbench.runner.yaml.OutOfRange
import stackbench.runner.suite.ProfilerEngine
import stackbench.runner.suite.ProfilerMode
import stackbench.runner.suite.ProfilerSpec
import stackbench.runner.suite.Restart
import stackbench.runner.suite.Suite
import stackbench.runner.suite.SuiteParser
import java.nio.file.Path

class RunCommand : CliktCommand(name = "run") {
    override fun help(context: Context) = """
        Runs a suite: every cell isolated, verified, warmed up, loaded and sampled; results are written as
        the run goes to results/<suite>-<UTC time>/ (results.json, results.csv, raw driver output, logs).
        With no SUITE, runs suites/quick.yaml.
    """.trimIndent()

    private val suiteArg by argument("SUITE", help = "a suite name in suites/ (e.g. quick) or a path to a suite file").optional()
    private val scale by option("--scale", help = "multiply warm-up and measured durations by this (0.1 = a tenth as long), ${OutOfRange.fmt(Ranges.SCALE_MIN)}..${OutOfRange.fmt(Ranges.SCALE_MAX)}; recorded in results").number(Ranges.SCALE_MIN, Ranges.SCALE_MAX)
    private val repetitions by option("--repetitions", help = "override the suite's repetitions (${Ranges.REPETITIONS.first}..${Ranges.REPETITIONS.last})").wholeNumber(Ranges.REPETITIONS)
    private val processes by option("--processes", help = "override the suite's processes: separate app processes per configuration, its repetitions (windows) in each (${Ranges.PROCESSES.first}..${Ranges.PROCESSES.last})").wholeNumber(Ranges.PROCESSES)
    private val restart by option("--restart", help = "override the suite's restart policy: cell (a fresh app per cell) or app (one app serves its consecutive cells, as one container serving every endpoint)")
        .choice(*Restart.entries.map { it.id }.toTypedArray())
    private val apps by option("--apps", metavar = "NAME,...", help = "run only these app configurations of the suite (their names in it)").split(",")
    private val resume by option("--resume", help = "a results folder of an interrupted run: run only the cells it lacks").path(canBeFile = false)
    private val out by option("--out", help = "the results folder (default: results/<suite>-<UTC time>); a new or an existing folder, not a file").path(canBeFile = false)
    private val untilDecided by option("--until-decided", metavar = "BUDGET",
        help = "after the planned repetitions, repeat the cells of every undecided comparison of the suite (its compare: list), interleaved, until each is decided or BUDGET (e.g. 20m) is spent; overrides the suite's until-decided")
        .duration(Ranges.UNTIL_DECIDED_MIN, Ranges.UNTIL_DECIDED_MAX)
    private val profile by option("--profile", metavar = "MODE[:ENGINE]",
        help = "a profile of every cell's measured window: ${ProfilerMode.ids.joinToString("|")}, recorded by ${ProfilerEngine.ids.joinToString("|")} (default auto: async-profiler where bundled, else JFR); overrides the suite's profiler:")
        .convert { v ->
            val mode = ProfilerMode.of(v.substringBefore(':')) ?: fail("'${v.substringBefore(':')}' is not a profiler mode (${ProfilerMode.ids.joinToString()})")
            val engine = if (':' in v) ProfilerEngine.of(v.substringAfter(':')) ?: fail("'${v.substringAfter(':')}' is not an engine (${ProfilerEngine.ids.joinToString()})") else ProfilerEngine.AUTO
            ProfilerSpec(mode, engine).also { s -> s.problem()?.let { fail(it) } }
        }
    private val long by option("--long", help = "confirm a run whose plan is estimated past ${MAX_UNCONFIRMED.toHours()} h").flag()
    private val history by option("--history", metavar = "URL", help = "index the finished run in this history: a JDBC URL (e.g. a team's PostgreSQL) or a SQLite file " +
        "(default: \$${stackbench.runner.history.HistoryLocation.ENVIRONMENT}, else results/${stackbench.runner.history.HistoryLocation.DEFAULT_FILE}, for runs under results/)")
    private val noInstall by option("--no-install", help = "do not install a missing load generator; stop with the command instead").flag()
    private val fastStart by option("--fast-start", help = "for the lab's own tests: start the built-in apps from their extracted jars with a class-data archive " +
        "(made at the first process's exit), about twice as fast; each start-up is marked fastStart in results.json, and is not one a container of the jar would see").flag()

    override fun run() {
        val earlier = resume?.let {
            try { ResultsStore.read(it) } catch (e: IllegalArgumentException) { throw BadInput("--resume: ${e.message}") }
        }
        val (parsed, suiteText, suitePath) = loadSuite(earlier)
        val appsKept = apps ?: earlier?.run?.apps
        val chosen = try { parsed.withRestart(restart ?: earlier?.run?.restart).withApps(appsKept).withProfiler(profile) } catch (e: IllegalArgumentException) { throw BadInput("--apps: ${e.message}") }
        // a run narrowed to some configurations (findings-run) resumes narrowed the same way
        val suite = earlier?.run?.focus(chosen) ?: chosen
        val scaleUsed = scale ?: earlier?.run?.scale ?: 1.0
        if (scaleUsed <= 0) throw BadInput("--scale must be positive, was $scaleUsed")
        val plan = Planner.plan(suite, scaleUsed, repetitions ?: earlier?.run?.repetitions, processes ?: earlier?.run?.processes)
        if (plan.cells.isEmpty() && plan.searches.isEmpty()) throw BadInput("the suite expands to no cells")
        if (plan.estimatedDuration > MAX_UNCONFIRMED && !long) {
            throw BadInput("the plan is estimated at ${stackbench.runner.cell.ConsoleProgress.format(plan.estimatedDuration)}, past the ${MAX_UNCONFIRMED.toHours()} h " +
                "a run may take unconfirmed; check it with ./stackbench plan, shorten it (--scale, --repetitions, --apps) or confirm with --long")
        }
        if (untilDecided != null && suite.comparisons.isEmpty()) throw noComparisons(suite)

        val source = LabRun.Source(suiteText, suitePath)
        LabRun(install = !noInstall, fastStart = fastStart, history = history).run(suite, plan, source, scaleUsed, appsKept, earlier, untilDecided ?: suite.untilDecided?.takeIf { suite.comparisons.isNotEmpty() },
            folder = { id -> resume ?: out ?: Home.results.resolve(id) }, epilogue = ::exit)
    }

    /** The run's outcome as the exit code: the resume hint when it was interrupted, 1 when a cell failed. */
    private fun exit(result: RunResult, dir: Path) {
        val failed = result.cells.count { it.status == CellStatus.FAILED }
        when {
            result.run.status == RunStatus.INTERRUPTED -> {
                println("the run was interrupted; finish it with: ./stackbench run --resume $dir")
                throw ProgramResult(130)
            }
            failed > 0 -> {
                println("$failed cell(s) failed; see the reasons above and the logs under $dir/cells")
                throw ProgramResult(Exit.CELL_FAILED)
            }
        }
    }

    private fun loadSuite(earlier: RunResult?): Triple<Suite, String, String> {
        val parser = SuiteParser(MachineFacts(EnvironmentProbe.machineCpus()), Home.path)
        if (earlier != null && suiteArg == null) {
            return Triple(parser.parse(earlier.run.suiteText, earlier.run.suiteFile), earlier.run.suiteText, earlier.run.suiteFile)
        }
        val path = Home.suite(suiteArg ?: "quick")
        val shown = Home.shown(path)
        val text = stackbench.runner.suite.SuiteText.read(path, shown)
        val suite = parser.parse(text, shown)
        if (earlier != null && earlier.run.suiteText != text) throw BadInput("--resume: ${resume} was run with a different suite text than $path")
        return Triple(suite, text, shown)
    }

    companion object {
        /** The longest estimated run that starts without `--long`. */
        val MAX_UNCONFIRMED: java.time.Duration = java.time.Duration.ofHours(12)

        /** `--until-decided` (run's or plan's) on a suite with nothing to decide. */
        fun noComparisons(suite: stackbench.runner.suite.Suite) =
            BadInput("--until-decided: suite ${suite.name} names no comparisons to decide (add a compare: list, see docs/suite-format.md)")
    }
}
