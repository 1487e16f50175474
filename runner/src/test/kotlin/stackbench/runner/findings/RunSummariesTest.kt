package stackbench.runner.findings

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.decide.SuiteDecisions
import stackbench.runner.plan.Planner
import stackbench.runner.report.MarkdownSummary
import stackbench.runner.results.Fixtures
import stackbench.runner.results.RunResult
import stackbench.runner.results.staged
import stackbench.runner.stats.Relation
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteComparison
import stackbench.runner.suite.SuiteParser

class RunSummariesTest {
    /** WebFlux about 1.5× Tomcat over three processes a side, with the run's own comparison of the two as recorded. */
    private fun run(): RunResult {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: v\napps: [{stack: tomcat}, {stack: webflux}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]\nrepetitions: 3", "v.yaml"))
        val cells = plan.cells.map { c ->
            val base = if (c.app.name == "tomcat") 1000.0 else 1500.0
            Fixtures.cell(c).staged(measured = Fixtures.load(base + c.repetition * 7, p99 = 10.0 + c.repetition * 0.001))
        }
        val (a, b) = listOf("webflux", "tomcat").map { app -> cells.first { it.app.name == app }.configKey }
        val decided = SuiteDecisions.decide(listOf(SuiteComparison("webflux vs tomcat", a, b, 0.10)), cells)
        return RunResult(run = Fixtures.info(cells.size), environment = Fixtures.environment(), cells = cells, decisions = decided)
    }

    private val claims = ClaimsParser.parse("""
        |claims:
        |  - {id: faster, article: "an article (2024)", text: "WebFlux serves more than Tomcat"}
        |comparisons:
        |  - id: cpu-light
        |    figure: throughput
        |    run: r
        |    claim-id: faster
        |    a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
        |    b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
        |    rows:
        |      - {label: light, published: {a: 1500, b: 1000}}
    """.trimMargin(), "c.yaml")

    @Test
    fun `a summary decides the run's comparisons again and carries the tables of findings that read the run`() {
        val measured = run()
        assertThat(measured.decisions.single().decision.relation).isEqualTo(Relation.HIGHER)
        // a record written under older rules that said otherwise: the summary says what the engine decides today
        val stale = measured.copy(decisions = measured.decisions.map { it.copy(decision = it.decision.copy(relation = Relation.LOWER), rules = "old") })
        val text = RunSummaries.render("r", stale, claims, ClaimTables(mapOf("r" to stale), claims))
        assertThat(text).startsWith(MarkdownSummary.render(measured).trimEnd())
        assertThat(text).isNotEqualTo(MarkdownSummary.render(stale))
        assertThat(text).contains("**In docs/findings.md**", "Holm's step-down", "#### cpu-light")
        // the table as findings.md has it, verdict included
        assertThat(text).contains(ClaimTables(mapOf("r" to stale), claims).render(claims.comparisons.single()))
        assertThat(text).contains("| light |").contains("holds")
    }

    @Test
    fun `a run no claim reads keeps its own summary, and stale names the runs whose written summary differs`() {
        val measured = run()
        assertThat(RunSummaries.render("other", measured, claims, ClaimTables(mapOf("other" to measured), claims)))
            .isEqualTo(MarkdownSummary.render(measured))
        val runs = mapOf("r" to measured)
        val expected = RunSummaries.render("r", measured, claims, ClaimTables(runs, claims))
        assertThat(RunSummaries.stale(claims, runs) { null }).containsOnlyKeys("r").containsValue(expected)
        assertThat(RunSummaries.stale(claims, runs) { "### v: stackbench results\n\nwritten by hand" }).containsOnlyKeys("r")
        assertThat(RunSummaries.stale(claims, runs) { expected }).isEmpty()
    }
}
