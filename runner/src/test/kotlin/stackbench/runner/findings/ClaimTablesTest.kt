package stackbench.runner.findings

import stackbench.runner.decide.Figure
import stackbench.runner.report.ReportFixtures
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class ClaimTablesTest {
    // sweep: tomcat-platform and webflux at 8 and 64 connections, 2 repetitions; webflux's first at 64 failed
    private val runs = mapOf("sweep" to ReportFixtures.load(ReportFixtures.SWEEP), "three" to ReportFixtures.load(ReportFixtures.COMPARE_A))

    private fun comparison(yaml: String) = ClaimsParser.parse(yaml.trimIndent(), "c.yaml").comparisons.single()

    private val paired = comparison("""
        comparisons:
          - id: t
            figure: throughput
            run: sweep
            a: {name: Tomcat, app: tomcat-platform, request: "/cpu/direct?limit=2000", connections: "{c}"}
            b: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=2000", connections: "{c}"}
            over: {c: [8, 64]}
            published: {a: [2000, 1000], b: [1000, ~]}
    """)

    @Test
    fun `each side is the median of its repetitions and the ratio is the verdict's, of geometric means over processes`() {
        val tables = ClaimTables(runs)
        val a = tables.measure(paired.rows[0].a, Figure.THROUGHPUT)
        val b = tables.measure(paired.rows[0].b!!, Figure.THROUGHPUT)
        assertThat(a.values).hasSize(2)
        assertThat(a.median).isCloseTo((1480.8872885210747 + 1963.2995106796077) / 2, org.assertj.core.data.Offset.offset(1e-6))
        assertThat(b.median).isCloseTo((1285.1958206496304 + 973.569595852222) / 2, org.assertj.core.data.Offset.offset(1e-6))
        val table = tables.render(paired)
        assertThat(table).contains("| 8 | 2,000 | 1,000 | 2.00× | 1,722 | 1,129 | 1.52× |")
    }

    @Test
    fun `a failed repetition is named and the published ratio is left out where a figure is missing`() {
        val table = ClaimTables(runs).render(paired)
        assertThat(table).contains("| 64 | 1,000 | – | – | 1,459 | 992 (1 of 2 failed) | 1.46× |")
        assertThat(table.lines().first()).isEqualTo("*req/s; measured: median over 2 repetitions; measured ratio: of geometric means over process means, as the verdict reads it; verdicts: the interval of that ratio (Welch, 95 % at one look) against the claim; runs: docs/runs/sweep*")
    }

    @Test
    fun `three repetitions give a range, and a row with no cell says not run and is reported`() {
        val c = comparison("""
            comparisons:
              - id: t
                figure: throughput
                run: three
                rows:
                  - {label: here, a: {app: tomcat-platform, request: "/cpu/direct?limit=2000"}, published: {a: 1000}}
                  - {label: absent, a: {app: nobody, request: "/noop"}}
        """)
        val tables = ClaimTables(runs)
        val lines = tables.render(c).lines()
        assertThat(lines[0]).contains("median [range] over 3 repetitions")
        // beside a published figure the row claims the same within ±10 %: 1.85× with three repetitions differs
        assertThat(lines[4]).matches("\\| here \\| 1,000 \\| [0-9,]+ \\[[0-9,]+–[0-9,]+] \\| [0-9.]+× \\| same \\| differs \\[1\\.[0-9]{2}–[12]\\.[0-9]{2}] \\|")
        assertThat(lines[5]).isEqualTo("| absent | – | not run | – | – | – |")
        assertThat(tables.unmatched(c).map { it.app }).containsExactly("nobody")
    }

    @Test
    fun `the mean summary gives mean and standard deviation`() {
        val c = comparison("""
            comparisons:
              - id: t
                figure: throughput
                summary: mean
                run: sweep
                rows: [{label: x, a: {app: tomcat-platform, request: "/cpu/direct?limit=2000", connections: 8}}]
        """)
        val sd = Math.abs(1963.2995106796077 - 1480.8872885210747) / Math.sqrt(2.0)
        assertThat(ClaimTables(runs).render(c)).contains("| x | – | 1,722 ± ${"%,.0f".format(java.util.Locale.ROOT, sd)} | – |")
    }
}
