package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.decide.Reclassify
import stackbench.runner.results.PublishedRecord
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus

class ReclassifyCommand : CliktCommand(name = "reclassify") {
    override fun help(context: Context) = """
        Classifies every measured window of a past run again (flat, warming, slowing, no steady state) with this
        version's classifier, from the per-second series the run kept; nothing is measured again. Where a shape
        changes, its flag and the run's own comparisons follow, the window keeps the shape it was recorded with
        (windowShape.reclassifiedFrom), and DIR/results.json, results.csv, report.html and summary.md are rewritten.
        A published record (docs/runs/<run>, results.json.gz) keeps its form: results.json.gz and summary.md are
        rewritten, and ./stackbench findings then fills docs/findings.md from it.
    """.trimIndent()

    private val dir by argument("DIR", help = "a results folder written by ./stackbench run or findings-run, or a published one (docs/runs/<run>)").path()
    private val dryRun by option("--dry-run", help = "say what would change; write nothing").flag()

    override fun run() {
        val file = ResultsStore.fileOf(dir)
        val published = file.fileName.toString() == ResultsStore.GZIP_FILE
        val result = try {
            ResultsStore.read(dir)
        } catch (e: IllegalArgumentException) {
            throw BadInput(e.message ?: "cannot read $dir")
        }
        if (result.run.status == RunStatus.RUNNING) {
            throw BadInput("$file belongs to a run still in progress (status running): let it end, or resume it to an end, then reclassify")
        }
        val reclassified = Reclassify.run(result)
        // the analyses after a run read the windows as counted: applied again, as `run` applies them
        val outcome = reclassified.copy(result = AfterRun.apply(reclassified.result, ResultsStore.fileOf(dir).toAbsolutePath().parent, AfterRun.steps(null)) { println("  $it") })
        val classified = outcome.changes.size + outcome.same
        println("reclassify: ${result.run.id}: $classified window(s) classified again, ${outcome.changes.size} changed shape, " +
            "${outcome.same} kept it; ${outcome.without} cell(s) without a window")
        for (c in outcome.changes) println("  ${c.key}: ${c.from} → ${c.to} (${c.reason})")
        val rules = result.decisions.map { it.rules ?: "unrecorded" }.distinct().filter { it != stackbench.runner.results.Flags.RULES }
        if (rules.isNotEmpty()) println("  decided again under the rules of ${stackbench.runner.results.Flags.RULES} (recorded: ${rules.joinToString()})")
        if (outcome.changes.isEmpty() && outcome.result.decisions == result.decisions && outcome.result.profileOverhead == result.profileOverhead) return
        for ((before, after) in result.decisions.zip(outcome.result.decisions)) {
            if (before.decision.relation != after.decision.relation || before.decided != after.decided || before.decision.nA != after.decision.nA || before.decision.nB != after.decision.nB) {
                println("  comparison ${after.name}: ${state(before.decision.relation.id, before.decided, before.decision.nA, before.decision.nB)} → " +
                    state(after.decision.relation.id, after.decided, after.decision.nA, after.decision.nB))
            }
        }
        if (dryRun) {
            println("--dry-run: nothing written")
            return
        }
        val folder = file.toAbsolutePath().parent
        if (published) {
            val record = PublishedRecord.write(outcome.result, folder)
            val summary = Reports.writeSummary(outcome.result, folder)
            println("wrote $record, ${summary.fileName}; ./stackbench findings fills docs/findings.md from it")
            return
        }
        ResultsStore(folder).write(outcome.result)
        val report = Reports.write(outcome.result, folder)
        println("wrote ${folder.resolve(ResultsStore.JSON_FILE)}, ${ResultsStore.CSV_FILE}, ${report.html.fileName}, ${report.markdown.fileName}")
    }

    private fun state(relation: String, decided: Boolean, nA: Int, nB: Int) =
        "${if (decided) relation else "undecided"} ($nA and $nB repetitions counted)"
}
