package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.core.parse
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.multiple
import com.github.ajalt.clikt.parameters.options.convert
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.findings.ClaimsParser
import stackbench.runner.findings.FindingsPlanner
import stackbench.runner.findings.RunFocus
import stackbench.runner.plan.Plan
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import stackbench.runner.results.Sittings
import stackbench.runner.stats.Statistics
import stackbench.runner.suite.AppSource
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.Ranges
import stackbench.runner.suite.Suite
import stackbench.runner.suite.SuiteParser
import stackbench.runner.suite.SuiteText
import stackbench.runner.yaml.OutOfRange
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/** Runs one narrowed suite's plan on the lab: [LabRun] for real, a fake in tests. */
fun interface LabRunner {
    fun run(suite: Suite, plan: Plan, source: LabRun.Source, scale: Double, earlier: RunResult?, budget: Duration, dir: Path, epilogue: (RunResult, Path) -> Unit): RunResult
}

class FindingsRunCommand(
    private val lab: LabRunner = LabRunner { suite, plan, source, scale, earlier, budget, dir, epilogue ->
        LabRun(install = true).run(suite, plan, source, scale, null, earlier, budget, folder = { dir }, epilogue = epilogue)
    },
    /** What keeps a run's apps from starting, known before any run (a jar not built, a JDK not installed): [LabRun.startProblems]. */
    private val startProblems: (Plan) -> List<String> = { LabRun.startProblems(it) { app -> app.build == null && app.source !is AppSource.Command && app.source !is AppSource.Url } },
) : CliktCommand(name = "findings-run") {
    override fun help(context: Context) = """
        Runs exactly the cells the comparisons of docs/claims.yaml need, one run after another into
        DIR/<run>/, each run's suite narrowed to those cells, then repeats the cells of every comparison
        not yet decided (for the suite's own until-decided, or --budget) until it is. `./stackbench findings`
        then sets the figures beside the published ones and computes the verdicts (--publish does both).
        ID: a claim id (the rows that test it) or a comparison id (all its rows) of docs/claims.yaml, or
        a run name (every row's cells in that run); none: every claim. An existing DIR/<run> is resumed.
    """.trimIndent()

    private val ids by argument("ID", help = "a claim, a comparison or a run of docs/claims.yaml; none: every claim").multiple()
    private val repetitions by option("--repetitions", help = "planned repetitions of every cell before the until-decided rounds: with restart: cell " +
        "each a process, at least ${Statistics.MIN_FOR_INTERVAL} (default: ${Statistics.MIN_FOR_INTERVAL}, or the suite's own when it asks more, as servers-startup's " +
        "150 cold starts); with restart: app the windows in each process (default: the suite's own)")
        .convert("N") { text -> text.trim().toIntOrNull()?.takeIf { it in Ranges.REPETITIONS } ?: fail(OutOfRange.notWholeNumber(text, Ranges.REPETITIONS)) }
    private val processes by option("--processes", help = "with restart: app, the app processes of every configuration before the until-decided rounds, " +
        "at least ${Statistics.MIN_FOR_INTERVAL} (default: ${Statistics.MIN_FOR_INTERVAL}, or the suite's own when it asks more)")
        .convert("N") { text -> text.trim().toIntOrNull()?.takeIf { it in Ranges.PROCESSES } ?: fail(OutOfRange.notWholeNumber(text, Ranges.PROCESSES)) }
    private val scale by option("--scale", help = "multiply warm-up and measured durations (default 1: the published windows); recorded in results")
        .number(Ranges.SCALE_MIN, Ranges.SCALE_MAX).default(1.0)
    private val budget by option("--budget", metavar = "DURATION", help = "every run's time for the until-decided rounds after the planned repetitions " +
        "(default: each suite's own `until-decided`, fixed in it before the run; 60m where a suite sets none)")
        .duration(Ranges.UNTIL_DECIDED_MIN, Ranges.UNTIL_DECIDED_MAX)
    private val out by option("--out", help = "the folder of the runs, one DIR/<run>/ each; an existing one is resumed (default results/findings)")
        .path(canBeFile = false).default(Path.of("results/findings"))
    private val claimsFile by option("--claims", help = "the comparisons, the claims and the published figures").path().default(Path.of("docs/claims.yaml"))
    private val dryRun by option("--dry-run", help = "print each run's cells, the comparisons it drives and those left to findings, and the estimated time; run nothing").flag()
    private val publish by option("--publish", help = "run nothing: copy the finished runs of DIR to docs/runs/ (the record compressed, its summary and suite), then fill docs/findings.md (./stackbench findings)").flag()

    override fun run() {
        val claimsPath = Home.path.resolve(claimsFile)
        if (!Files.isRegularFile(claimsPath)) throw BadInput("--claims: $claimsPath does not exist")
        val claims = ClaimsParser.parse(Files.readString(claimsPath), runCatching { Home.path.relativize(claimsPath.toAbsolutePath()).toString() }.getOrDefault(claimsPath.toString()))
        val suites = SuiteFiles(SuiteParser(MachineFacts(EnvironmentProbe.machineCpus())))
        val plan = try { FindingsPlanner.plan(claims, ids, suites::suite) } catch (e: IllegalArgumentException) { throw BadInput(e.message ?: "no plan") }
        val outDir = Home.path.resolve(out)
        if (publish) {
            Publishing.publish(plan.runs.map { it.run }, outDir, Home.path.resolve("docs/runs"))
            FindingsCommand().parse(listOf("--claims", claimsPath.toString()))
            return
        }
        val planned = plan.runs.associate { focus ->
            focus.run to try { FindingsPlanner.cells(focus.suite, scale, repetitions, processes) } catch (e: IllegalArgumentException) { throw BadInput("${focus.run}: ${e.message}") }
        }
        val reps = listOfNotNull(processes?.let { "$it processes a configuration" } ?: "${Statistics.MIN_FOR_INTERVAL} processes a configuration (or the suite's own when more)",
            repetitions?.let { "$it repetitions (with restart: app, windows a process)" }).joinToString(", ")
        val budgets = plan.runs.associate { it.run to FindingsRunText.budget(it, budget) }
        println(FindingsRunText.header(plan, ids, claimsFile.toString(), reps, scale, budget))
        val cannotStart = plan.runs.associate { it.run to startProblems(planned.getValue(it.run)) }.filterValues { it.isNotEmpty() }
        if (dryRun) {
            plan.runs.forEach {
                println(); println(FindingsRunText.run(it, planned.getValue(it.run), budgets.getValue(it.run)))
                cannotStart[it.run]?.let { why -> println(FindingsRunText.cannotStart(why)) }
            }
            println()
            println(FindingsRunText.total(plan, planned, budget))
            return
        }
        if (cannotStart.isNotEmpty()) throw BadInput(FindingsRunText.refused(cannotStart, plan.runs.map { it.run }))
        val outcomes = plan.runs.mapIndexed { i, focus ->
            println()
            println("=== ${focus.run} (${i + 1} of ${plan.runs.size}): ${FindingsRunText.run(focus, planned.getValue(focus.run), budgets.getValue(focus.run)).lines().first()}")
            runOne(focus, planned.getValue(focus.run), budgets.getValue(focus.run), outDir.resolve(focus.run), suites)
        }
        println()
        println(FindingsRunText.outcomes(outcomes))
        if (outcomes.any { !it.ok }) throw ProgramResult(Exit.CELL_FAILED)
    }

    /** One run through the lab, as `run` runs a suite; what keeps it from running or fails in it ends it, not the next. */
    private fun runOne(focus: RunFocus, plan: Plan, runBudget: Duration, dir: Path, suites: SuiteFiles): FindingsRunText.Outcome {
        val started = System.nanoTime()
        fun took() = Duration.ofNanos(System.nanoTime() - started)
        return try {
            val earlier = try { LabRun.earlier(dir) } catch (e: IllegalArgumentException) { throw BadInput("${e.message}") }
            earlier?.let { checkResumable(it, focus.suite, suites.source(focus.run), dir) }
            val result = lab.run(focus.suite, plan, suites.source(focus.run), scale, earlier, runBudget, dir) { r, d ->
                if (r.run.status == RunStatus.INTERRUPTED) {
                    println("the run was interrupted; the same command resumes it (its finished cells in $d are kept)")
                    throw ProgramResult(130)
                }
                println("=== ${focus.run}: ${FindingsRunText.outcome(focus.run, r, took()).line}")
            }
            FindingsRunText.outcome(focus.run, result, took())
        } catch (e: ProgramResult) {
            throw e
        } catch (e: BadInput) {
            println("=== ${focus.run}: not run: ${e.message}")
            FindingsRunText.Outcome(focus.run, took(), "not run: ${e.message}", ok = false)
        } catch (e: stackbench.runner.yaml.SuiteException) {
            println("=== ${focus.run}: not run: ${e.message}")
            FindingsRunText.Outcome(focus.run, took(), "not run: the suite has ${e.problems.size} problem(s)", ok = false)
        } catch (e: RuntimeException) {
            println("=== ${focus.run}: failed: $e")
            FindingsRunText.Outcome(focus.run, took(), "failed: $e", ok = false)
        }
    }

    /** An earlier run in the folder is resumed only when it measured the same suite the same way. */
    private fun checkResumable(earlier: RunResult, suite: Suite, source: LabRun.Source, dir: Path) {
        val why = when {
            earlier.run.suiteText != source.text -> "it was run from another text of ${source.path}"
            earlier.run.scale != scale -> "it was run at --scale ${earlier.run.scale}, not $scale"
            earlier.run.restart != null && earlier.run.restart != suite.restart.id -> "it was run with restart ${earlier.run.restart}, the suite now says ${suite.restart.id}"
            // a run is published from one commit (Sittings.unpublishable): another commit's sitting would be measured for nothing
            else -> {
                val began = Sittings.of(earlier).first().gitCommit
                val now = Build.runCommit()
                if (began == null || now == null || began == now) return
                "it began at commit ${began.take(10)} and this clone is at ${now.take(10)}, and a run is published from one commit: " +
                    "resume it in the clone it began in"
            }
        }
        throw BadInput("$dir cannot be resumed: $why; give another --out, or move it away")
    }

    /** The suites of the runs, read once each from suites/<run>.yaml with their text (recorded in the results). */
    private class SuiteFiles(private val parser: SuiteParser) {
        private val read = mutableMapOf<String, Pair<Suite, LabRun.Source>>()

        fun suite(run: String): Suite = load(run).first
        fun source(run: String): LabRun.Source = load(run).second

        private fun load(run: String) = read.getOrPut(run) {
            val path = Home.suites.resolve("$run.yaml")
            if (!Files.isRegularFile(path)) throw BadInput("run '$run' of docs/claims.yaml has no suite: $path does not exist")
            val shown = "suites/$run.yaml"
            val text = SuiteText.read(path, shown)
            parser.parse(text, shown) to LabRun.Source(text, shown)
        }
    }
}
