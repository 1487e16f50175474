package stackbench.runner.gate

import stackbench.runner.stats.Relation
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.gate.GateFixtures.PLATFORM
import stackbench.runner.gate.GateFixtures.VIRTUAL
import stackbench.runner.gate.GateFixtures.run

class GateTest {
    private val baseline = run("t-1", "2026-11-27T01:00:00Z")

    @Test
    fun `two runs of the same code pass, every configuration decided the same`() {
        val g = Gate.decide(baseline, run("t-2", "2026-11-27T02:00:00Z"), 0.05)
        assertThat(g.outcome).isEqualTo(GateOutcome.PASSED)
        assertThat(g.cells.map { it.configKey }).containsExactlyInAnyOrder(PLATFORM, VIRTUAL)
        assertThat(g.cells.map { it.verdict }).containsOnly(GateVerdict.SAME)
        assertThat(g.cells.map { it.throughput.decision.method }).containsOnly("welch-log-process-means")
    }

    @Test
    fun `a configuration 30 % slower fails the gate, named with its figures`() {
        val g = Gate.decide(baseline, run("t-2", "2026-11-27T02:00:00Z", scale = mapOf(PLATFORM to 0.7)), 0.05)
        assertThat(g.outcome).isEqualTo(GateOutcome.SLOWER)
        val slower = g.cells.single { it.verdict == GateVerdict.SLOWER }
        assertThat(slower.configKey).isEqualTo(PLATFORM)
        assertThat(slower.throughput.decision.relation).isEqualTo(Relation.LOWER)
        assertThat(slower.throughput.decision.ratio!!).isBetween(0.69, 0.71)
        assertThat(slower.throughput.decision.high!!).isLessThan(0.95)
        assertThat(g.reason).contains(PLATFORM, "slower beyond 5 %", "throughput 0.70×")
        assertThat(g.cells.single { it.configKey == VIRTUAL }.verdict).isEqualTo(GateVerdict.SAME)
    }

    @Test
    fun `a p99 decided higher beyond the threshold is slower too, even at the same throughput`() {
        val g = Gate.decide(baseline, run("t-2", "2026-11-27T02:00:00Z", p99Scale = mapOf(VIRTUAL to 1.5)), 0.05)
        assertThat(g.outcome).isEqualTo(GateOutcome.SLOWER)
        val slower = g.cells.single { it.verdict == GateVerdict.SLOWER }
        assertThat(slower.configKey).isEqualTo(VIRTUAL)
        assertThat(slower.p99.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(slower.why).startsWith("p99 1.50×")
    }

    @Test
    fun `faster is not a failure`() {
        val g = Gate.decide(baseline, run("t-2", "2026-11-27T02:00:00Z", scale = mapOf(VIRTUAL to 1.4)), 0.05)
        assertThat(g.outcome).isEqualTo(GateOutcome.PASSED)
        assertThat(g.cells.single { it.configKey == VIRTUAL }.verdict).isEqualTo(GateVerdict.FASTER)
    }

    @Test
    fun `a change inside the threshold passes at 5 % and fails at 1 %`() {
        val current = run("t-2", "2026-11-27T02:00:00Z", scale = mapOf(PLATFORM to 0.97))
        assertThat(Gate.decide(baseline, current, 0.05).outcome).isEqualTo(GateOutcome.PASSED)
        assertThat(Gate.decide(baseline, current, 0.01).outcome).isEqualTo(GateOutcome.SLOWER)
    }

    @Test
    fun `an undecided configuration passes unless the team asks each to be decided, then it fails the gate, named`() {
        // 5 % slower against a band of ±5 %: the interval straddles the band's edge
        val current = run("t-2", "2026-11-27T02:00:00Z", scale = mapOf(PLATFORM to 0.95))
        val passed = Gate.decide(baseline, current, 0.05)
        assertThat(passed.outcome).isEqualTo(GateOutcome.PASSED)
        assertThat(passed.cells.filter { it.verdict == GateVerdict.UNDECIDED }.map { it.configKey }).containsExactly(PLATFORM)
        assertThat(passed.reason).contains("1 undecided")
        assertThat(GateJunit.render(passed)).contains("failures=\"0\"", "skipped=\"1\"")

        val strict = Gate.decide(baseline, current, 0.05, failOnUndecided = true)
        assertThat(strict.outcome).isEqualTo(GateOutcome.UNDECIDED)
        assertThat(strict.reason).startsWith("1 of 2 configuration(s) undecided").contains(PLATFORM)
        assertThat(GateJunit.render(strict)).contains("failures=\"1\"", "skipped=\"0\"", "--fail-on-undecided")
        assertThat(GateMarkdown.render(strict)).contains("undecided")
        // a decided run is not failed by the switch
        assertThat(Gate.decide(baseline, run("t-3", "2026-11-27T03:00:00Z"), 0.05, failOnUndecided = true).outcome).isEqualTo(GateOutcome.PASSED)
    }

    @Test
    fun `another suite cannot be compared, and says which`() {
        val g = Gate.decide(baseline, run("u-2", "2026-11-27T02:00:00Z", suite = "u"), 0.05)
        assertThat(g.outcome).isEqualTo(GateOutcome.CANNOT_COMPARE)
        assertThat(g.reason).isEqualTo("different suites: the baseline ran 't' (t-1), the current run 'u' (u-2)")
        assertThat(g.cells).isEmpty()
    }

    @Test
    fun `runs without a configuration in common cannot be compared`() {
        val current = run("t-2", "2026-11-27T02:00:00Z").let { r -> r.copy(cells = r.cells.map { it.copy(configKey = "other/" + it.configKey) }) }
        val g = Gate.decide(baseline, current, 0.05)
        assertThat(g.outcome).isEqualTo(GateOutcome.CANNOT_COMPARE)
        assertThat(g.reason).startsWith("no matching cells")
    }

    @Test
    fun `one process a side cannot decide, and the gate says so rather than pass`() {
        val g = Gate.decide(run("t-1", "2026-11-27T01:00:00Z", processes = 1), run("t-2", "2026-11-27T02:00:00Z", processes = 1, scale = mapOf(PLATFORM to 0.7)), 0.05)
        assertThat(g.outcome).isEqualTo(GateOutcome.CANNOT_COMPARE)
        assertThat(g.reason).startsWith("too few processes to decide").contains("$PLATFORM: 1 in the baseline, 1 now", "processes: 2 or more")
        assertThat(g.cells.map { it.verdict }).containsOnly(GateVerdict.UNDECIDED)
    }

    @Test
    fun `the same process names in both runs are still two sets of processes`() {
        // both runs label their JVMs platform#1..3: relabelled, the baseline's are not pooled with the current run's
        val g = Gate.decide(baseline, run("t-2", "2026-11-27T02:00:00Z"), 0.05)
        assertThat(g.cells.map { it.throughput.decision.processesA to it.throughput.decision.processesB }).containsOnly(3 to 3)
    }
}
