package stackbench.runner.findings

import stackbench.runner.decide.Figure
import stackbench.runner.stats.Relation
import stackbench.runner.yaml.SuiteException
import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

class ClaimsParserTest {
    private fun problems(yaml: String): List<String> =
        (runCatching { ClaimsParser.parse(yaml.trimIndent(), "c.yaml") }.exceptionOrNull() as? SuiteException)?.problems?.map { it.render() }
            ?: error("expected the claims to be rejected")

    @Test
    fun `a sweep fills every placeholder and pairs each row with its published figures`() {
        val claims = ClaimsParser.parse("""
            comparisons:
              - id: pool
                figure: throughput
                run: cpu
                a: {name: pool, app: tomcat, request: "/cpu/completable-future?limit={limit}"}
                b: {name: thread, app: tomcat, request: "/cpu/direct?limit={limit}", connections: 400}
                over: {limit: [100, 1000]}
                published: {a: [10, 30], b: [20, ~]}
                show: [throttled]
        """.trimIndent(), "c.yaml")
        val c = claims.comparisons.single()
        assertThat(c.figure).isEqualTo(Figure.THROUGHPUT)
        assertThat(c.rowHeader).isEqualTo("limit")
        assertThat(c.aName to c.bName).isEqualTo("pool" to "thread")
        assertThat(c.rows.map { it.label }).containsExactly("100", "1000")
        assertThat(c.rows[1].a).isEqualTo(Selector("cpu", "tomcat", "/cpu/completable-future?limit=1000"))
        assertThat(c.rows[1].b).isEqualTo(Selector("cpu", "tomcat", "/cpu/direct?limit=1000", connections = 400))
        assertThat(c.rows.map { it.published }).containsExactly(0.5, null)
        assertThat(c.show).containsExactly(Figure.THROTTLED)
    }

    @Test
    fun `two sweep keys make every combination, the first outermost, labelled by key`() {
        val c = ClaimsParser.parse("""
            comparisons:
              - id: x
                figure: p99
                run: r
                a: {app: "{server}", request: "/todo", method: post, rate: "{rate}"}
                over: {server: [tomcat, webflux], rate: [200, 400]}
        """.trimIndent(), "c.yaml").comparisons.single()
        assertThat(c.rows.map { it.label }).containsExactly("server tomcat, rate 200", "server tomcat, rate 400", "server webflux, rate 200", "server webflux, rate 400")
        assertThat(c.rows.last().a).isEqualTo(Selector("r", "webflux", "/todo", "POST", rate = 400.0))
    }

    @Test
    fun `listed rows take the comparison's sides and override them`() {
        val c = ClaimsParser.parse("""
            comparisons:
              - id: x
                figure: startup
                summary: mean
                run: s
                a: {name: server}
                b: {name: Undertow, app: undertow, request: /noop}
                rows:
                  - {label: Tomcat, a: {app: tomcat, request: /noop}, published: {a: 5.1, b: 4.9}}
        """.trimIndent(), "c.yaml").comparisons.single()
        assertThat(c.summary).isEqualTo(Summary.MEAN)
        assertThat(c.rows.single().a).isEqualTo(Selector("s", "tomcat", "/noop"))
        assertThat(c.rows.single().b).isEqualTo(Selector("s", "undertow", "/noop"))
        assertThat(c.rows.single().published).isCloseTo(5.1 / 4.9, org.assertj.core.data.Offset.offset(1e-9))
    }

    @Test
    fun `mistakes are reported at their line and column, all at once`() {
        val found = problems("""
            comparisons:
              - id: x
                figure: speed
                run: r
                a: {app: tomcat, request: "/cpu/direct?limit={limt}"}
                over: {limit: [1, 2]}
                published: {a: [1, 2, 3]}
                colour: red
        """)
        assertThat(found).anySatisfy { assertThat(it).startsWith("c.yaml:3:13: comparisons[0].figure: 'speed' is not a figure") }
        assertThat(found).anySatisfy { assertThat(it).startsWith("c.yaml:5:31: comparisons[0].a.request: '{limt}' names no variable of over") }
        assertThat(found).anySatisfy { assertThat(it).startsWith("c.yaml:7:20: comparisons[0].published.a: has 3 value(s) but the comparison has 2 row(s)") }
        assertThat(found).anySatisfy { assertThat(it).startsWith("c.yaml:8:5: comparisons[0].colour: is not a known key") }
        assertThat(found).hasSize(4)
    }

    @Test
    fun `an article names one its claims name, and says what it said and what to do`() {
        val found = problems("""
            articles:
              - {name: "an article (2024)", said: "x", advice: "y"}
              - {name: "a blog (2019)", said: "x"}
            claims:
              - {id: c, article: "an article (2024)", text: "t"}
            comparisons:
              - {id: x, figure: throughput, run: r, claim-id: c, a: {app: tomcat, request: /noop}, b: {app: webflux, request: /noop}, rows: [{label: l, claim: higher}]}
        """)
        assertThat(found).hasSize(2)
        assertThat(found[0]).startsWith("c.yaml:3:5: articles[1].advice: is required").contains("hint: what a reader should do, given what the lab measured")
        assertThat(found[1]).startsWith("c.yaml:3:12: articles[1].name: no claim names the article 'a blog (2019)'")
            .contains("hint: articles named by claims: an article (2024)")
    }

    @Test
    fun `a comparison needs rows, and an id only once`() {
        assertThat(problems("""
            comparisons:
              - {id: x, figure: p99, run: r}
        """)).anySatisfy { assertThat(it).contains("has no rows: give over (a sweep) or rows") }
        assertThat(problems("""
            comparisons:
              - {id: x, figure: p99, run: r, rows: [{label: a, a: {app: t, request: /noop}}]}
              - {id: x, figure: p99, run: r, rows: [{label: a, a: {app: t, request: /noop}}]}
        """)).anySatisfy { assertThat(it).contains("the id 'x' is used more than once") }
        assertThat(problems("""
            comparisons:
              - {id: x, figure: p99, run: r, paired: maybe, rows: [{label: a, a: {app: t, request: /noop}}]}
        """)).anySatisfy { assertThat(it).contains("paired: 'maybe' is not true or false") }
    }

    @Test
    fun `claim and claim-id give each row its claimed relation and its claim, one for all or a list in row order`() {
        val c = ClaimsParser.parse("""
            claims:
              - {id: heavy, article: a, text: t}
            comparisons:
              - id: x
                figure: throughput
                run: r
                threshold: 0.1
                claim: [~, none, lower]
                claim-id: heavy
                a: {app: t, request: "/cpu/direct?limit={limit}"}
                b: {app: u, request: "/cpu/direct?limit={limit}"}
                over: {limit: [1, 2, 3]}
                published: {a: [30, 30, 10], b: [10, 10, ~]}
        """.trimIndent(), "c.yaml").let { it.claims.single().id to it.comparisons.single() }
        val (claim, x) = c
        assertThat(claim).isEqualTo("heavy")
        assertThat(x.threshold).isEqualTo(0.1)
        assertThat(x.rows.map { it.name }).containsExactly("limit 1", "limit 2", "limit 3")
        assertThat(x.rows.map { it.claim }).containsExactly(null, Expectation.NONE, Expectation.LOWER)
        assertThat(x.rows.map { it.claimed(x.threshold) }).containsExactly(stackbench.runner.stats.Relation.HIGHER, null, stackbench.runner.stats.Relation.LOWER)
        // one claim-id for the comparison names only the rows that claim something
        assertThat(x.rows.map { it.claimId }).containsExactly("heavy", null, "heavy")
    }

    private val sized = """
        claims:
          - {id: doubles, article: a, text: t}
        comparisons:
          - id: x
            figure: throughput
            run: r
            claim-id: doubles
            SIZE
            a: {app: t, request: "/cpu/direct?limit={limit}"}
            b: {app: u, request: "/cpu/direct?limit={limit}"}
            over: {limit: [1, 2, 3]}
            published: {a: [10, 12, 20], b: [10, 10, 10]}
    """.trimIndent()

    @Test
    fun `a band wider than 10 percent is refused, naming the key and the size to write instead`() {
        assertThat(problems(sized.replace("SIZE", "threshold: 0.5"))).anySatisfy {
            assertThat(it).contains("c.yaml:8").contains("threshold").contains("never wider than ±10 %").contains("size: {above: 1.5")
        }
    }

    @Test
    fun `a size applies to the rows whose published ratio lies on its side, with the day it was fixed`() {
        val x = ClaimsParser.parse(sized.replace("SIZE", "size: {above: 1.5, fixed: 2026-11-23}"), "c.yaml").comparisons.single()
        assertThat(x.threshold).isEqualTo(0.1)
        assertThat(x.rows.map { it.size?.text }).containsExactly(null, null, "above 1.50×")
        assertThat(x.size!!.fixed).isEqualTo(java.time.LocalDate.of(2026, 11, 23))
        assertThat(x.rows.map { it.claimed(x.threshold) }).containsExactly(Relation.SAME, Relation.HIGHER, Relation.HIGHER)
    }

    @Test
    fun `a size needs one bound and its day, and must apply to some row`() {
        assertThat(problems(sized.replace("SIZE", "size: {above: 1.5}"))).anySatisfy { assertThat(it).contains("size.fixed").contains("is required") }
        assertThat(problems(sized.replace("SIZE", "size: {above: 1.5, below: 0.5, fixed: 2026-11-23}"))).anySatisfy { assertThat(it).contains("give one bound") }
        assertThat(problems(sized.replace("SIZE", "size: {above: 1.5, fixed: 23.11.2026}"))).anySatisfy { assertThat(it).contains("'23.11.2026' is not a date") }
        assertThat(problems(sized.replace("SIZE", "size: {above: 3, fixed: 2026-11-23}"))).anySatisfy { assertThat(it).contains("applies to no row") }
    }

    @Test
    fun `the project's own docs claims yaml reads without a problem`() {
        val file = Path.of("../docs/claims.yaml")
        val claims = ClaimsParser.parse(Files.readString(file), "docs/claims.yaml")
        assertThat(claims.comparisons).isNotEmpty
        assertThat(claims.comparisons).allSatisfy { assertThat(it.rows).isNotEmpty }
        assertThat(claims.claims).isNotEmpty
    }
}
