package stackbench.runner.decide

import stackbench.runner.stats.Relation
import stackbench.runner.plan.Planner
import stackbench.runner.report.Decided
import stackbench.runner.results.CellResult
import stackbench.runner.results.ComparisonRecord
import stackbench.runner.results.Fixtures
import stackbench.runner.stats.Decisions
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteComparison
import stackbench.runner.suite.SuiteParser
import stackbench.runner.yaml.SuiteException
import kotlin.math.exp
import kotlin.math.ln
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.data.Offset
import org.junit.jupiter.api.Test

/** Suite comparisons decided paired by round (`paired: true`), from synthetic cells: no server runs. */
class PairedDecisionsTest {
    private fun suite(processes: Int, paired: String) = SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: platform, stack: tomcat}, {name: virtual, stack: tomcat, virtual-threads: true}]
        endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
        load: {connections: [100]}
        restart: app
        processes: $processes
        repetitions: 1
        compare:
          - {name: virtual vs platform, a: virtual/io-blocking-delay100/c100, b: platform/io-blocking-delay100/c100, paired: $paired}
        """.trimIndent(), "t.yaml",
    )

    /** One window a process, as the runner records them with `restart: app`: every cell names its process (`virtual#3`). */
    private fun run(processes: Int, paired: Boolean, value: (app: String, round: Int) -> Double): Pair<List<SuiteComparison>, List<CellResult>> {
        val s = suite(processes, paired.toString())
        return s.comparisons to Planner.plan(s).cells.map { c -> Fixtures.cell(c, throughput = value(c.app.name, c.process)) }
    }

    // the machine's pace in each round: both sides of a round run minutes apart and share it
    private val drift = listOf(1.0, 1.2, 0.85, 1.1, 0.9, 1.15)
    private val noise = listOf(1.01, 0.99, 1.02, 0.98, 1.0, 1.01)
    private fun level(app: String, round: Int) = drift[round - 1] * if (app == "virtual") 1250.0 * noise[round - 1] else 1000.0

    @Test
    fun `a ratio that drift between rounds hides unpaired is decided paired, each round against its own`() {
        val (unpairedComparisons, cells) = run(6, paired = false, ::level)
        val unpaired = SuiteDecisions.decide(unpairedComparisons, cells).single()
        // Welch over process means sees the rounds' ±15 % as noise: the interval reaches into the band
        assertThat(unpaired.decision.method).isEqualTo(Decisions.PROCESS_MEANS)
        assertThat(unpaired.decided).isFalse()
        assertThat(unpaired.decision.low!!).isLessThan(1.10)

        val (pairedComparisons, same) = run(6, paired = true, ::level)
        assertThat(pairedComparisons.single().paired).isTrue()
        val d = SuiteDecisions.decide(pairedComparisons, same).single()
        assertThat(d.decision.method).isEqualTo(Decisions.PAIRED_ROUNDS)
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.decision.processesA to d.decision.processesB).isEqualTo(6 to 6)
        assertThat(d.decision.df).isEqualTo(5.0)
        // the geometric mean of the rounds' ratios: the drift cancels in each
        assertThat(d.decision.ratio!!).isCloseTo(1.25 * exp(noise.map { ln(it) }.average()), Offset.offset(1e-9))
        assertThat(d.decision.low!!).isGreaterThan(1.2)
        // six pairs all one way: the exact signed-rank p is 2/64, below 5 %, so it can and does agree
        assertThat(d.decision.pValue!!).isCloseTo(2.0 / 64, Offset.offset(1e-9))
        assertThat(d.decision.pExact).isTrue()
        assertThat(d.decision.why).contains("paired over 6 rounds").contains("exact signed-rank test p = 0.031")
        assertThat(Decided.sentence(d) { it }).contains("6 pairs of rounds, 12 independent JVMs, 6 and 6 windows")
    }

    @Test
    fun `a round measured on one side only is left out and named, and five pairs leave the interval to decide alone`() {
        val (comparisons, cells) = run(6, paired = true, ::level)
        val d = SuiteDecisions.decide(comparisons, cells.filterNot { it.process == "virtual#3" }).single()
        assertThat(d.decision.processesA).isEqualTo(5)
        assertThat(d.decision.nA to d.decision.nB).isEqualTo(5 to 5)
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.decision.why).contains("round(s) 3 left out: measured on one side only")
            .contains("with 5 pairs the exact signed-rank test cannot reach p < 0.050 (smallest p 0.063), so the interval decides alone")
    }

    @Test
    fun `one pair is undecided, saying why`() {
        val (comparisons, cells) = run(2, paired = true, ::level)
        val d = SuiteDecisions.decide(comparisons, cells.filterNot { it.process == "platform#2" }).single()
        assertThat(d.decided).isFalse()
        assertThat(d.decision.why).contains("1 pair(s) of rounds: an interval needs 2").contains("round(s) 2 left out")
        assertThat(d.processesNeeded).isNull()
    }

    @Test
    fun `pairs that vary say how many pairs would decide`() {
        // a true 1.05 with the rounds' ratios scattered ±6 %: inside the band only with more pairs
        val scatter = listOf(1.06, 0.95, 1.08, 0.97, 1.04, 1.0)
        val (comparisons, cells) = run(6, paired = true) { app, r -> drift[r - 1] * if (app == "virtual") 1050.0 * scatter[r - 1] else 1000.0 }
        val d = SuiteDecisions.decide(comparisons, cells).single()
        assertThat(d.decided).isFalse()
        assertThat(d.processesNeeded!!).isGreaterThan(6)
        assertThat(Decided.sentence(d) { it }).contains("${d.processesNeeded} pairs of rounds would decide this ratio")
    }

    @Test
    fun `paired is true or false, named at its line, and a findings-run record keeps it`() {
        assertThatThrownBy { suite(2, "maybe") }.isInstanceOf(SuiteException::class.java)
            .hasMessageContaining("t.yaml:9:").hasMessageContaining("compare[0].paired: 'maybe' is not true or false")
        assertThat(suite(2, "false").comparisons.single().paired).isFalse()
        val c = suite(2, "true").comparisons.single()
        assertThat(ComparisonRecord.of(c).comparison()).isEqualTo(c.copy(line = 0, column = 0))
    }
}
