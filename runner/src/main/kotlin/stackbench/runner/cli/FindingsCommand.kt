package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.findings.ClaimsParser
import stackbench.runner.findings.FindingsUpdate
import stackbench.runner.findings.RunSummaries
import stackbench.runner.results.ResultsStore
import java.nio.file.Files
import java.nio.file.Path

class FindingsCommand : CliktCommand(name = "findings") {
    override fun help(context: Context) = """
        Fills docs/findings.md from runs' results: each comparison in docs/claims.yaml sets the figures an
        article published beside the lab's, with the ratios and each row's verdict (<!-- table:ID -->); each
        claim gets its computed verdict (<!-- verdict:ID -->) and a line of the glance table (<!-- verdicts -->).
        A verdict holds when the repetitions decide the claimed relation, differs when they decide another,
        and cannot tell otherwise (fewer than 3 repetitions, an interval that does not decide, a flagged cell).
        Only the text between the markers changes; the words around them are left as they are, and a verdict
        typed by hand outside them is reported, as is a figure in the words that is not one of the runs, their
        suites or the claims (a figure from a law or an article says so in a comment after it). Each run's
        summary.md is written again by the same engine: its own comparisons decided again under today's rules,
        then the tables that read it.
    """.trimIndent()

    private val claimsFile by option("--claims", help = "the comparisons, the claims and the published figures").path().default(Path.of("docs/claims.yaml"))
    private val runsDir by option("--runs", help = "the folder holding one results folder per run, named as the claims name them (findings-run writes results/findings, and --publish copies it here)")
        .path().default(Path.of("docs/runs"))
    private val docFile by option("--doc", help = "the document to fill").path().default(Path.of("docs/findings.md"))
    private val check by option("--check", help = "change nothing; exit 1 when a table or a verdict is not what the runs give, a verdict is typed by hand, a figure in the words is not one of the runs', or a run's summary.md is not what the engine writes").flag()

    override fun run() {
        val claimsPath = Home.path.resolve(claimsFile)
        val docPath = Home.path.resolve(docFile)
        val runs = Home.path.resolve(runsDir)
        if (!Files.isRegularFile(claimsPath)) throw BadInput("--claims: $claimsPath does not exist")
        if (!Files.isRegularFile(docPath)) throw BadInput("--doc: $docPath does not exist")
        val claims = ClaimsParser.parse(Files.readString(claimsPath), Home.path.relativize(claimsPath.toAbsolutePath()).toString())
        // a run with a suite but no folder yet: its claims were fixed before it ran, and their rows wait for it
        val suitePlans = SuitePlans(Home.suites)
        val (pending, published) = FindingsUpdate.runNames(claims).partition { suitePlans.unpublished(it, runs) }
        val results = published.associateWith { name ->
            try { ResultsStore.read(runs.resolve(name)) } catch (e: IllegalArgumentException) { throw BadInput("run '$name': ${e.message}") }
        }
        if (pending.isNotEmpty()) println("not published yet, so their rows cannot tell: ${pending.joinToString { "$runsDir/$it" }} (suites/ has their suites)")
        val doc = Files.readString(docPath)
        val outcome = try { FindingsUpdate.update(claims, results, doc, Files.readString(claimsPath), pending.toSet(), suitePlans::plans) } catch (e: IllegalArgumentException) { throw BadInput("$docPath: ${e.message}") }
        outcome.problems.forEach { System.err.println("stackbench: $it") }
        if (outcome.problems.isNotEmpty()) throw ProgramResult(Exit.BAD_INPUT)
        val summaries = RunSummaries.stale(claims, results) { name -> runs.resolve(name).resolve(Reports.MARKDOWN).takeIf(Files::isRegularFile)?.let(Files::readString) }
        if (check) {
            outcome.typed.forEach { println("$docFile: $it") }
            outcome.unchecked.forEach { println("$docFile: $it") }
            summaries.keys.forEach { println("$runsDir/$it/${Reports.MARKDOWN}: not what the engine writes from the run's results and $claimsFile; run ./stackbench findings") }
            if (outcome.changed.isEmpty() && outcome.typed.isEmpty() && outcome.unchecked.isEmpty() && summaries.isEmpty()) {
                println("$docFile: every table, verdict and figure in the words matches the runs in $runsDir, and so does each run's ${Reports.MARKDOWN}")
            }
            else {
                if (outcome.changed.isNotEmpty()) {
                    println("$docFile: ${outcome.changed.size} table(s) or verdict(s) differ from what the runs give: ${outcome.changed.joinToString()}; run ./stackbench findings")
                }
                throw ProgramResult(Exit.CELL_FAILED)
            }
            return
        }
        Files.writeString(docPath, outcome.text)
        summaries.forEach { (name, text) -> stackbench.runner.results.AtomicFiles.write(runs.resolve(name).resolve(Reports.MARKDOWN), text) }
        if (summaries.isNotEmpty()) println("wrote ${Reports.MARKDOWN} of ${summaries.size} run(s) again: ${summaries.keys.joinToString()}")
        if (outcome.forest.isNotEmpty() && stackbench.runner.findings.FindingsDoc.section(outcome.text, stackbench.runner.findings.FindingsDoc.FOREST) != null) {
            val image = docPath.resolveSibling(stackbench.runner.findings.FindingsDoc.FOREST_IMAGE)
            val cpus = results.values.map { it.environment.cpuModel }.distinct().joinToString(" / ")
            val page = stackbench.runner.findings.Forest.page(outcome.forest,
                "stackbench findings · ${results.size} runs of $runsDir · $cpus · drawn ${java.time.LocalDate.now(java.time.ZoneOffset.UTC)}")
            // the document is written: a picture that cannot be drawn is said, and the words stand
            if (page != null) runCatching { PagePicture.write(page, image, 1100) }
                .onSuccess { println("wrote $image: ${outcome.forest.size} rows") }
                .onFailure { System.err.println("stackbench: $image not drawn again: ${it.message}") }
        }
        println("$docFile: ${claims.comparisons.size} tables and ${claims.claims.size} verdicts from ${results.size} runs" +
            if (outcome.changed.isEmpty()) ", none changed" else "; changed: ${outcome.changed.joinToString()}")
        outcome.verdicts.forEach { println("  ${it.claim.id}: ${it.verdict.text}") }
        if (outcome.typed.isNotEmpty() || outcome.unchecked.isNotEmpty()) {
            outcome.typed.forEach { System.err.println("stackbench: $docFile: $it") }
            outcome.unchecked.forEach { System.err.println("stackbench: $docFile: $it") }
            throw ProgramResult(Exit.BAD_INPUT)
        }
    }
}
