package stackbench.runner.decide

import stackbench.runner.stats.Relation
import stackbench.runner.results.staged
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Flag
import stackbench.runner.results.Flags
import stackbench.runner.results.ResourceSummary
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import stackbench.runner.yaml.SuiteException
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

class SuiteDecisionsTest {
    private val suite = SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: platform, stack: tomcat}, {name: virtual, stack: tomcat, virtual-threads: true}]
        endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
        load: {connections: [100]}
        repetitions: 3
        compare:
          - {name: virtual vs platform, a: virtual/io-blocking-delay100/c100, b: platform/io-blocking-delay100/c100, threshold: 10%}
        """.trimIndent(), "t.yaml",
    )
    private val plan = Planner.plan(suite)

    private fun results(platform: List<Double>, virtual: List<Double>) = plan.cells.map { c ->
        val values = if (c.app.name == "platform") platform else virtual
        Fixtures.cell(c, throughput = values[c.repetition - 1])
    }

    @Test
    fun `a clear gap is decided higher`() {
        val d = SuiteDecisions.decide(suite.comparisons, results(listOf(500.0, 498.0, 503.0), listOf(990.0, 1001.0, 985.0))).single()
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.decided).isTrue()
        assertThat(d.decision.nA).isEqualTo(3)
        assertThat(SuiteDecisions.openConfigs(listOf(d))).isEmpty()
    }

    @Test
    fun `a flagged repetition is left out, named, and leaves the comparison open`() {
        val slowHost = listOf(Flag("host-slow", "the host ran 30 % slower than its pace", "throughput"))
        val one = results(listOf(500.0, 498.0, 503.0), listOf(990.0, 1001.0, 985.0)).map {
            if (it.key == "virtual/io-blocking-delay100/c100/r2") it.copy(flags = slowHost) else it
        }
        // two processes a side still give an interval
        val two = SuiteDecisions.decide(suite.comparisons, one).single()
        assertThat(two.decision.nA).isEqualTo(2)
        assertThat(two.decision.processesA).isEqualTo(2)
        assertThat(two.leftOut).containsExactly("virtual/io-blocking-delay100/c100/r2: flagged host-slow")
        assertThat(two.decision.relation).isEqualTo(Relation.HIGHER)
        val cells = one.map { if (it.key == "virtual/io-blocking-delay100/c100/r3") it.copy(flags = slowHost) else it }
        val d = SuiteDecisions.decide(suite.comparisons, cells).single()
        assertThat(d.decided).isFalse()
        assertThat(d.decision.nA).isEqualTo(1)
        // three were run: the advice names the processes the flags took, never "set processes: 2"
        assertThat(d.decision.why).isEqualTo("1 process on one side (1 and 3): an interval needs 2; 2 of 3 and 0 of 3 processes had no window left " +
            "(see left out): a longer warm-up cap, a lower load level or more processes may keep them")
        assertThat(d.leftOut).containsExactly("virtual/io-blocking-delay100/c100/r2: flagged host-slow", "virtual/io-blocking-delay100/c100/r3: flagged host-slow")
        assertThat(SuiteDecisions.openConfigs(listOf(d))).containsExactlyInAnyOrder("virtual/io-blocking-delay100/c100", "platform/io-blocking-delay100/c100")
    }

    @Test
    fun `a failed cell does not count`() {
        val cells = results(listOf(500.0, 498.0, 503.0), listOf(990.0, 1001.0, 985.0)).map {
            if (it.key == "platform/io-blocking-delay100/c100/r1") it.copy(status = CellStatus.FAILED) else it
        }
        assertThat(SuiteDecisions.decide(suite.comparisons, cells).single().leftOut).containsExactly("platform/io-blocking-delay100/c100/r1: failed")
    }

    @Test
    fun `a url app's cells are never set against an isolated app's, left out with the reason, and no further round is asked for`() {
        val notIsolated = Flag(Flags.NOT_ISOLATED, "a service the lab did not start", "other")
        // virtual stands for a url app here: every one of its cells carries the flag, a failed one too
        val cells = results(listOf(500.0, 498.0, 503.0), listOf(990.0, 1001.0, 985.0)).map {
            if (it.app.name == "virtual") it.copy(flags = it.flags + notIsolated) else it
        }
        val d = SuiteDecisions.decide(suite.comparisons, cells).single()
        assertThat(d.decided).isFalse()
        assertThat(d.decision.nA).isZero()
        assertThat(d.decision.nB).isEqualTo(3)
        assertThat(d.leftOut).hasSize(3).allMatch { it.startsWith("virtual/io-blocking-delay100/c100/r") && it.endsWith(": ${SuiteDecisions.NOT_ISOLATED}") }
        assertThat(SuiteDecisions.NOT_ISOLATED).startsWith("not-isolated: a url app is not measured under the lab's isolation")
        assertThat(SuiteDecisions.openConfigs(listOf(d))).`as`("no round can make it comparable").isEmpty()

        // two url apps compare as any two apps: the flag alone does not take a cell out
        val both = SuiteDecisions.decide(suite.comparisons, cells.map { it.copy(flags = (it.flags + notIsolated).distinct()) }).single()
        assertThat(both.decided).isTrue()
        assertThat(both.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(both.leftOut).isEmpty()
    }

    @Test
    fun `a comparison naming no configuration of the plan is a suite problem at its line`() {
        val bad = SuiteParser(MachineFacts(2)).parse(
            """
            name: t
            apps: [{name: platform, stack: tomcat}]
            endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
            compare:
              - {a: platform/io-blocking-delay100/c50, b: platform/io-blocking-delay10/c50}
            """.trimIndent(), "t.yaml",
        )
        assertThatThrownBy { Planner.plan(bad) }.isInstanceOf(SuiteException::class.java)
            .hasMessageContaining("t.yaml:5:5: compare.b: 'platform/io-blocking-delay10/c50' is not a configuration of this suite")
            .hasMessageContaining("did you mean 'platform/io-blocking-delay100/c50'?")
    }

    @Test
    fun `a suite's comparison names its figure, read as findings reads it, and an unknown one is an error at its line`() {
        fun parse(figure: String) = SuiteParser(MachineFacts(2)).parse(
            """
            name: t
            apps: [{name: platform, stack: tomcat}, {name: virtual, stack: tomcat, virtual-threads: true}]
            endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
            compare:
              - {a: virtual/io-blocking-delay100/c50, b: platform/io-blocking-delay100/c50, figure: $figure}
            """.trimIndent(), "t.yaml",
        )
        assertThat(stackbench.runner.suite.SuiteComparison.FIGURES).containsExactlyInAnyOrderElementsOf(stackbench.runner.decide.Figure.ids)
        assertThat(parse("cpu").comparisons.single().figure).isEqualTo("cpu")
        assertThat(suite.comparisons.single().figure).isEqualTo("throughput")
        assertThatThrownBy { parse("cpu-per-request") }.isInstanceOf(SuiteException::class.java)
            .hasMessageContaining("t.yaml:5:89: compare[0].figure: 'cpu-per-request' is not a figure")
            .hasMessageContaining("one of: throughput, server-throughput, mean, p50, p90, p99")
    }

    @Test
    fun `until-decided without comparisons is kept for findings-run, and a bad one names its line`() {
        val bare = SuiteParser(MachineFacts(2)).parse("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nuntil-decided: 35m\n", "t.yaml")
        assertThat(bare.comparisons).isEmpty()
        assertThat(bare.untilDecided).isEqualTo(java.time.Duration.ofMinutes(35))
        assertThatThrownBy {
            SuiteParser(MachineFacts(2)).parse("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nuntil-decided: 0s\n", "t.yaml")
        }.isInstanceOf(SuiteException::class.java).hasMessageContaining("t.yaml:4:").hasMessageContaining("until-decided")
        assertThat(suite.untilDecided).isNull()
    }

    @Test
    fun `a decision reads as one sentence with its interval, or why it is open`() {
        val decided = SuiteDecisions.decide(suite.comparisons, results(listOf(500.0, 498.0, 503.0), listOf(990.0, 1001.0, 985.0))).single()
        assertThat(stackbench.runner.report.Decided.sentence(decided) { it })
            .isEqualTo("virtual/io-blocking-delay100/c100 ÷ platform/io-blocking-delay100/c100 = 1.98× [1.95–2.02]: higher, beyond ±10 % " +
                "(3 and 3 processes, 6 independent JVMs, 3 and 3 windows, 95.0 % interval; spread between processes 0.8 % and 0.5 % (one window a process: " +
                "within included); 2 processes a side would decide this ratio)")
        val open = SuiteDecisions.decide(suite.comparisons, results(listOf(500.0, 498.0, 503.0), listOf(520.0, 700.0, 530.0))).single()
        assertThat(stackbench.runner.report.Decided.sentence(open) { it }).contains("cannot tell yet: 95.0 % interval").contains("crosses an edge of the band")
    }

    @Test
    fun `a comparison of another figure decides from that figure, as findings reads it`() {
        val p99 = suite.comparisons.single().copy(name = "p99", figure = "p99")
        // the same throughput on both sides, but virtual's p99 is a third of platform's
        val cells = plan.cells.map { c ->
            val cell = Fixtures.cell(c, throughput = 1000.0 + c.repetition)
            cell.staged(measured = Fixtures.load(1000.0 + c.repetition, p99 = (if (c.app.name == "virtual") 100.0 else 300.0) + c.repetition))
        }
        val byP99 = SuiteDecisions.decide(listOf(p99), cells).single()
        assertThat(byP99.decision.relation).isEqualTo(Relation.LOWER)
        assertThat(byP99.figure).isEqualTo("p99")
        // the ratio of geometric means over processes (here one window each)
        val geo = { xs: List<Double> -> kotlin.math.exp(xs.map { kotlin.math.ln(it) }.average()) }
        assertThat(byP99.decision.ratio).isCloseTo(geo(listOf(101.0, 102.0, 103.0)) / geo(listOf(301.0, 302.0, 303.0)), org.assertj.core.data.Offset.offset(1e-9))
        assertThat(stackbench.runner.report.Decided.sentence(byP99) { it }).startsWith("p99: virtual/io-blocking-delay100/c100 ÷ ")
        assertThat(SuiteDecisions.decide(suite.comparisons, cells).single().decision.relation).isEqualTo(Relation.SAME)
    }

    @Test
    fun `a window that swings counts for the per-second variation, which measures the swing, and for throughput read again without it`() {
        val steady = listOf(1000.0, 1002.0, 998.0, 1001.0, 999.0, 1000.0)
        // each window swings a little differently: processes with no spread at all give no interval
        fun swinging(rep: Int) = listOf(1000.0, 300.0 + 20 * rep, 1000.0, 1000.0, 700.0, 1000.0)
        val shape = Flag("no-steady-state", "1,000 then 300 then 1,000 req/s", "throughput")
        val compiling = Flag("compiling", "the JIT compiled in the window", "throughput")
        fun cells(vararg more: Flag) = results(listOf(500.0, 498.0, 503.0), listOf(990.0, 1001.0, 985.0)).map {
            if (it.app.name == "virtual") it.copy(flags = listOf(shape) + more).staged(resources = ResourceSummary(cpuShare = 0.3, serverPerSecond = swinging(it.repetition)))
            else it.staged(resources = ResourceSummary(cpuShare = 0.3, serverPerSecond = steady.map { v -> v + (if (v > 1000) it.repetition else -it.repetition) }))
        }
        val stability = suite.comparisons.single().copy(figure = "stability")
        val d = SuiteDecisions.decide(listOf(stability), cells()).single()
        assertThat(d.leftOut).isEmpty()
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.decided).isTrue()
        // the same windows, read for their mean rate: counted, and the decision read again without them
        val rate = SuiteDecisions.decide(suite.comparisons, cells()).single()
        assertThat(rate.leftOut).isEmpty()
        assertThat(rate.decision.why).contains("without the 3 window(s) whose app was flagged (no-steady-state)")
        // a JIT still at work is the app's state whatever the figure
        val jit = SuiteDecisions.decide(listOf(stability), cells(compiling)).single()
        assertThat(jit.leftOut).isEmpty()
        assertThat(jit.decision.why).contains("without the 3 window(s) whose app was flagged (compiling)")
    }

    @Test
    fun `a cell without the figure is left out and named`() {
        val cpu = suite.comparisons.single().copy(figure = "cpu")
        val d = SuiteDecisions.decide(listOf(cpu), results(listOf(500.0, 498.0, 503.0), listOf(990.0, 1001.0, 985.0))).single()
        assertThat(d.decided).isFalse()
        assertThat(d.decision.nA).isZero()
        assertThat(d.leftOut).contains("virtual/io-blocking-delay100/c100/r1: no cpu")
    }
}
