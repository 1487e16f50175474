package stackbench.runner.decide

import stackbench.runner.results.staged
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellResult
import stackbench.runner.results.Fixtures
import stackbench.runner.results.ResourceSummary
import stackbench.runner.results.SliceRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.data.Offset
import org.junit.jupiter.api.Test

class FigureTest {
    private val cell = Fixtures.cell(Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: f\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nrepetitions: 1", "f.yaml")).cells.single())

    private fun perSecond(vararg xs: Double?): CellResult = cell.staged(resources = ResourceSummary(cpuShare = 0.3, serverPerSecond = xs.toList()))

    @Test
    fun `the per-second variation leaves out the first second, where the load generator opens its connections`() {
        // a steady server, its window's first second short while 10,000 connections open
        assertThat(Figure.STABILITY.value(perSecond(1873.0, 2000.0, 2000.0, 2000.0, 2000.0))).isEqualTo(0.0)
        // from the second second on: mean 1,000, standard deviation 100
        assertThat(Figure.STABILITY.value(perSecond(500.0, 900.0, 1100.0, 1000.0, null)))!!.isCloseTo(0.1, Offset.offset(1e-12))
        // one second left is no variation to speak of
        assertThat(Figure.STABILITY.value(perSecond(500.0, 900.0))).isNull()
    }

    @Test
    fun `the warm-up's variation is read from its slices, the app's own rate in each`() {
        fun warmup(vararg rates: Double) = cell.staged(warmup = WarmupRecord(rates.size.toDouble(), "steady", null, null,
            rates.mapIndexed { i, r -> SliceRecord(i + 1.0, r, 0.1, 1.0) }))
        // mean 1,000, standard deviation 100
        assertThat(Figure.WARMUP_STABILITY.value(warmup(900.0, 1100.0, 1000.0)))!!.isCloseTo(0.1, Offset.offset(1e-12))
        assertThat(Figure.WARMUP_STABILITY.value(warmup(900.0))).isNull()
        assertThat(Figure.WARMUP_STABILITY.value(cell)).isNull()
    }

    @Test
    fun `only the figures of a swing, of the warm-up and of a rate at its wait's ceiling waive flags, each those it does not depend on`() {
        assertThat(Figure.entries.filter { it.waiver != null })
            .containsExactly(Figure.THROUGHPUT, Figure.SERVER_THROUGHPUT, Figure.STABILITY, Figure.WARMUP_STABILITY)
        // a rate: the JIT's flags only, and only at a Little's-law ceiling (SuiteDecisions' tests decide with it)
        assertThat(Figure.THROUGHPUT.waiver!!.codes).containsExactlyInAnyOrder("compiling", "unsteady", "host-slow")
        fun at(law: String, efficiency: Double) = cell.staged(ceiling = stackbench.runner.results.Ceiling(law, 1000.0, "test", efficiency))
        assertThat(Figure.THROUGHPUT.waiver!!.holds(at("Little's law", 0.96))).isTrue()
        assertThat(Figure.THROUGHPUT.waiver!!.holds(at("Little's law", 0.94))).isFalse()
        assertThat(Figure.THROUGHPUT.waiver!!.holds(cell.staged(ceiling = null))).isFalse()
        assertThat(Figure.STABILITY.waiver!!.codes).containsExactlyInAnyOrder("warming", "slowing", "no-steady-state")
        // the warm-up's figure: nothing about the window after it; a kill, a slow host or a client at its limit still counts against it
        assertThat(Figure.WARMUP_STABILITY.waiver!!.codes).contains("compiling", "unsteady", "no-steady-state").doesNotContain("oom", "host-slow", "client-bound")
    }

    @Test
    fun `the mean latency is the load generator's mean, beside its percentiles, and unknown without one`() {
        val load = Fixtures.load(100.0, p99 = 40.0)
        val measured = cell.staged(measured = load.copy(latency = load.latency.copy(mean = 12.5, p50 = 10.0)))
        assertThat(Figure.of("mean")).isEqualTo(Figure.MEAN)
        assertThat(Figure.MEAN.value(measured)).isEqualTo(12.5)
        assertThat(Figure.P99.value(measured)).isEqualTo(40.0)
        assertThat(Figure.MEAN.value(cell.staged(measured = null))).isNull()
        assertThat(Figure.MEAN.waiver).isNull()
    }
}
