package stackbench.runner.findings

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.runner.report.ReportFixtures
import java.nio.file.Files
import java.nio.file.Path

class FindingsDocTest {
    @Test
    fun `only the text between a table's markers changes`() {
        val doc = "# F\nwords\n<!-- table:a -->\nold\n<!-- /table:a -->\nmore words\n<!-- table:b --><!-- /table:b -->\n"
        val out = FindingsDoc.splice(doc, mapOf("table:a" to "| new |", "table:b" to "| b |"))
        assertThat(out.text).isEqualTo("# F\nwords\n<!-- table:a -->\n| new |\n<!-- /table:a -->\nmore words\n<!-- table:b -->\n| b |\n<!-- /table:b -->\n")
        assertThat(out.filled).containsExactly("table:a", "table:b")
        assertThat(FindingsDoc.splice(out.text, mapOf("table:a" to "| new |", "table:b" to "| b |")).text).isEqualTo(out.text)
    }

    @Test
    fun `a marker without a table and a table without a marker are both named`() {
        val out = FindingsDoc.splice("<!-- table:x -->kept<!-- /table:x -->", mapOf("table:y" to "t"))
        assertThat(out.text).isEqualTo("<!-- table:x -->kept<!-- /table:x -->")
        assertThat(out.unknown).containsExactly("table:x")
        assertThat(out.unplaced).containsExactly("table:y")
    }

    @Test
    fun `an unclosed marker is an error naming it`() {
        assertThatThrownBy { FindingsDoc.splice("<!-- table:x -->\n", mapOf("table:x" to "t")) }
            .hasMessage("<!-- table:x --> has no closing <!-- /table:x -->")
    }

    @Test
    fun `an update reports missing runs and cells, and which tables changed`() {
        val claims = ClaimsParser.parse("""
            comparisons:
              - {id: t, figure: throughput, run: sweep, rows: [{label: x, a: {app: webflux, request: "/cpu/direct?limit=2000", connections: 8}}]}
              - {id: u, figure: throughput, run: gone, rows: [{label: y, a: {app: webflux, request: /noop}}]}
        """.trimIndent(), "c.yaml")
        val runs = mapOf("sweep" to ReportFixtures.load(ReportFixtures.SWEEP))
        val out = FindingsUpdate.update(claims, runs, "<!-- table:t --><!-- /table:t -->")
        assertThat(out.changed).containsExactly("table:t")
        assertThat(out.problems).containsExactly(
            "no run 'gone' was given",
            "comparison 'u' has no place in the document: add <!-- table:u --><!-- /table:u -->",
        )
        assertThat(FindingsUpdate.update(claims, runs, out.text).changed).isEmpty()
    }

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
