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
        val runs = FindingsUpdate.runNames(claims).associateWith { stackbench.runner.results.ResultsStore.read(root.resolve("docs/runs/$it")) }
        val out = FindingsUpdate.update(claims, runs, Files.readString(root.resolve("docs/findings.md")), claimsText)
        assertThat(out.problems).isEmpty()
        assertThat(out.typed).describedAs("verdicts typed by hand outside the markers").isEmpty()
        assertThat(out.changed).describedAs("tables and verdicts that differ from docs/runs; regenerate with ./stackbench findings").isEmpty()
        assertThat(out.changed.filter { it.startsWith("verdict") }).isEmpty()
        assertThat(out.unchecked.map { it.toString() }).describedAs("figures in the words that the runs do not give").isEmpty()
        assertThat(claims.claims).isNotEmpty
        assertThat(FindingsDoc.section(Files.readString(root.resolve("docs/findings.md")), FindingsDoc.VERDICTS)).isNotNull()
    }
}
