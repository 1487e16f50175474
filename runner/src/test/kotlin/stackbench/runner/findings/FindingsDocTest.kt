package stackbench.runner.findings

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.runner.report.ReportFixtures

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
}
