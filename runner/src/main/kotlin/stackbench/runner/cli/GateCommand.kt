package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.required
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.results.NamedRequests
import stackbench.runner.gate.Gate
import stackbench.runner.gate.GateJunit
import stackbench.runner.gate.GateMarkdown
import stackbench.runner.gate.GateOutcome
import stackbench.runner.gate.GateResult
import stackbench.runner.history.HistoryException
import stackbench.runner.history.HistoryLocation
import stackbench.runner.history.HistoryStore
import stackbench.runner.results.AtomicFiles
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import stackbench.runner.yaml.Units
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardOpenOption

class GateCommand : CliktCommand(name = "gate") {
    override fun help(context: Context) = """
        The regression gate for CI: compares the current run with a baseline configuration by configuration, with the
        decision rules of the suite comparisons (the app process as the unit, Welch's interval of the ratio and the exact
        rank test, against a band of ±threshold). A configuration is slower when its throughput is decided lower, or its
        p99 higher, beyond the threshold. REF is a results folder, `latest` (the latest run of the same suite on this
        machine before the current one, from the history) or a run id in the history.

        Exit codes: 0 no configuration slower, 1 some configuration slower (or, with --fail-on-undecided, some
        configuration undecided), 2 the runs cannot be compared (another suite, no configuration in both, too few app
        processes to decide; said why) or bad input.
    """.trimIndent()

    private val baseline by option("--baseline", metavar = "REF", help = "a results folder, `latest`, or a run id in the history").required()
    private val current by option("--current", metavar = "DIR", help = "the run to check (default: the latest run in the history on this machine)").path()
    private val threshold by thresholdOption(DEFAULT_THRESHOLD)
    private val junit by option("--junit", metavar = "FILE", help = "write a JUnit XML report here (one test case per configuration)").path(canBeDir = false)
    private val summary by option("--summary", metavar = "FILE",
        help = "append a Markdown summary here (e.g. \$GITHUB_STEP_SUMMARY)").path(canBeDir = false)
    private val failOnUndecided by option("--fail-on-undecided",
        help = "fail (exit 1) when a configuration cannot be told slower or not, instead of passing it: the team's choice (docs/ci.md)").flag()
    private val request by option("--request", metavar = "NAME",
        help = "gate one named request of a mix or a scenario (its throughput and p99), in the configurations that measured it")
    private val history by option("--history", metavar = "URL", help = "the history's JDBC URL or SQLite file (default: \$${HistoryLocation.ENVIRONMENT}, else results/${HistoryLocation.DEFAULT_FILE})")

    override fun run() {
        val url = HistoryLocation.url(history, System.getenv(), Home.results)
        val store = lazy { openHistory(url) }
        try {
            val now = current?.let { read(it, "--current") } ?: latestRun(store.value, url)
            val base = baselineRun(baseline, now, store, url)
            val result = try {
                request?.let { r -> Gate.decide(NamedRequests.run(base, r), NamedRequests.run(now, r), threshold, failOnUndecided) }
                    ?: Gate.decide(base, now, threshold, failOnUndecided)
            } catch (e: IllegalArgumentException) {
                throw BadInput(e.message ?: "cannot read request '$request'")
            }
            report(result)
            throw ProgramResult(when (result.outcome) {
                GateOutcome.PASSED -> Exit.OK
                GateOutcome.SLOWER, GateOutcome.UNDECIDED -> Exit.GATE_SLOWER
                GateOutcome.CANNOT_COMPARE -> Exit.GATE_CANNOT_COMPARE
            })
        } finally {
            if (store.isInitialized()) store.value.close()
        }
    }

    private fun report(g: GateResult) {
        val markdown = GateMarkdown.render(g)
        junit?.let { f ->
            f.toAbsolutePath().parent?.let { Files.createDirectories(it) }
            AtomicFiles.write(f, GateJunit.render(g))
        }
        summary?.let { f ->
            f.toAbsolutePath().parent?.let { Files.createDirectories(it) }
            Files.writeString(f, markdown + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND)
        }
        print(markdown)
        when (g.outcome) {
            GateOutcome.PASSED -> println("\ngate: passed: ${g.reason}")
            GateOutcome.SLOWER, GateOutcome.UNDECIDED -> System.err.println("stackbench: gate failed: ${g.reason}")
            GateOutcome.CANNOT_COMPARE -> System.err.println("stackbench: the runs cannot be compared: ${g.reason}")
        }
    }

    private fun baselineRun(ref: String, now: RunResult, store: Lazy<HistoryStore>, url: String): RunResult {
        val path = Path.of(ref)
        if (Files.exists(path)) return read(path, "--baseline")
        if (ref == LATEST) {
            val row = store.value.latest(now.run.suite, now.environment.hostname, now.run.startedAt, now.run.id)
                ?: throw cannotCompare("no baseline: the history at ${HistoryLocation.shown(url)} has no run of suite '${now.run.suite}' on " +
                    "${now.environment.hostname} before ${now.run.id}")
            return fromHistory(row.folder, row.id)
        }
        store.value.run(ref)?.let { return fromHistory(it.folder, it.id) }
        Home.results.resolve(ref).takeIf { Files.isDirectory(it) }?.let { return read(it, "--baseline") }
        throw BadInput("--baseline $ref: not a results folder, not `$LATEST`, and no run of that id in the history at ${HistoryLocation.shown(url)}")
    }

    /** A run of the history: its folder as indexed, else a folder of its id in this project's results (a checkout moved, a CI cache restored elsewhere). */
    private fun fromHistory(folder: String, id: String): RunResult {
        val path = HistoryRuns.folder(folder, id)
            ?: throw cannotCompare("the run $id is in the history, but its results are gone from $folder (and from ${Home.results.resolve(id)})")
        return read(path, "--baseline")
    }

    private fun latestRun(store: HistoryStore, url: String): RunResult {
        val host = stackbench.runner.env.EnvironmentProbe.hostname()
        val row = store.latestOn(host) ?: throw BadInput("no --current, and the history at ${HistoryLocation.shown(url)} has no run on $host: give --current DIR")
        return fromHistory(row.folder, row.id)
    }

    private fun read(path: Path, flag: String): RunResult = try {
        ResultsStore.read(path)
    } catch (e: IllegalArgumentException) {
        throw BadInput("$flag: ${e.message}")
    }

    private fun openHistory(url: String): HistoryStore = try {
        HistoryStore.open(url)
    } catch (e: HistoryException) {
        throw BadInput(e.message ?: "the history could not be opened")
    }

    /** The runs cannot be compared: said on stderr, exit [Exit.GATE_CANNOT_COMPARE]. */
    private fun cannotCompare(why: String): ProgramResult {
        System.err.println("stackbench: the runs cannot be compared: $why")
        return ProgramResult(Exit.GATE_CANNOT_COMPARE)
    }

    companion object {
        const val LATEST = "latest"
        const val DEFAULT_THRESHOLD = 0.05
    }
}
