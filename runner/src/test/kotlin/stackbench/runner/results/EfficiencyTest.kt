package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.data.Offset
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

class EfficiencyTest {
    private val cell = Fixtures.cell(Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: e\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nrepetitions: 1", "e.yaml")).cells.single(), throughput = 2_000.0)

    @Test
    fun `requests per CPU-second divide the throughput by the CPU used, the share of the allotment times the CPUs allotted`() {
        // one CPU allotted (quota 1.0, cpuset [1]), half of it used: 2,000 req/s on 0.5 CPU-s a second
        val c = cell.staged(resources = ResourceSummary(cpuShare = 0.5, rssMaxBytes = 256L * 1024 * 1024))
        assertThat(Efficiency.perCpuSecond(c)!!).isCloseTo(4_000.0, Offset.offset(1e-9))
        assertThat(Efficiency.perMib(c)!!).isCloseTo(2_000.0 / 256, Offset.offset(1e-9))
        // a quota of 1.5 CPUs on two pinned: the quota is the allotment
        val wider = c.copy(profile = c.profile.copy(cpus = 1.5, cpuset = listOf(0, 1)))
        assertThat(Efficiency.allottedCpus(wider.profile)).isEqualTo(1.5)
        assertThat(Efficiency.perCpuSecond(wider)!!).isCloseTo(2_000.0 / 0.75, Offset.offset(1e-9))
        // no limit at all: every CPU the JVM was told of
        assertThat(Efficiency.allottedCpus(c.profile.copy(cpus = null, cpuset = emptyList(), activeProcessorCount = 2))).isEqualTo(2.0)
    }

    @Test
    fun `without the app's CPU or memory read, or without a throughput, there is no efficiency`() {
        assertThat(Efficiency.perCpuSecond(cell)).isNull()
        assertThat(Efficiency.perMib(cell)).isNull()
        assertThat(Efficiency.perCpuSecond(cell.staged(measured = null, resources = ResourceSummary(cpuShare = 0.5)))).isNull()
        assertThat(Efficiency.perCpuSecond(cell.staged(resources = ResourceSummary(cpuShare = 0.0)))).isNull()
        assertThat(ResultsCsv.render(RunResult(run = Fixtures.info(1), environment = Fixtures.environment(), cells = listOf(cell.staged(resources = ResourceSummary(cpuShare = 0.5))))))
            .contains("requestsPerCpuSecond", "4000.0")
    }
}
