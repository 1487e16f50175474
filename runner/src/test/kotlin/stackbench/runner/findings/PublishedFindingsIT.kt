package stackbench.runner.findings

import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/** docs/findings.md against every published run in docs/runs: it reads them all, so it runs in the integration lane. */
@Background
@ResourceLock(SharedMachine.LANE_1)
class PublishedFindingsIT {
    /**
     * docs/findings.md's tables and verdicts are what docs/runs gives: nobody edited a figure or a verdict by
     * hand, no run changed under them, no verdict is typed outside the generated markers, and every figure in the
     * words is one of the runs', their suites' or the claims' ([ProseFigures]).
     */
    @Test
    fun `the project's findings tables and verdicts match its published runs`() {
        val root = Path.of("..")
        val claimsText = Files.readString(root.resolve("docs/claims.yaml"))
        val claims = ClaimsParser.parse(claimsText, "docs/claims.yaml")
        // a claim fixed before its run: a suite in suites/ and no published run yet
        val suitePlans = stackbench.runner.cli.SuitePlans(root.resolve("suites"))
        val (pending, published) = FindingsUpdate.runNames(claims).partition { suitePlans.unpublished(it, root.resolve("docs/runs")) }
        val runs = published.associateWith { stackbench.runner.results.ResultsStore.read(root.resolve("docs/runs/$it")) }
        val out = FindingsUpdate.update(claims, runs, Files.readString(root.resolve("docs/findings.md")), claimsText, pending.toSet(),
            suitePlans::plans)
        assertThat(out.problems).isEmpty()
        assertThat(out.typed).describedAs("verdicts typed by hand outside the markers").isEmpty()
        assertThat(out.changed).describedAs("tables and verdicts that differ from docs/runs; regenerate with ./stackbench findings").isEmpty()
        assertThat(out.changed.filter { it.startsWith("verdict") }).isEmpty()
        assertThat(out.unchecked.map { it.toString() }).describedAs("figures in the words that the runs do not give").isEmpty()
        // each run's summary.md is what the engine writes today: its comparisons decided again, and the tables that read it
        val summaries = RunSummaries.stale(claims, runs) { name -> root.resolve("docs/runs/$name/summary.md").takeIf(Files::isRegularFile)?.let(Files::readString) }
        assertThat(summaries.keys).describedAs("docs/runs/*/summary.md that differ from what the engine writes; regenerate with ./stackbench findings").isEmpty()
        assertThat(claims.claims).isNotEmpty
        assertThat(FindingsDoc.section(Files.readString(root.resolve("docs/findings.md")), FindingsDoc.VERDICTS)).isNotNull()
    }
}
