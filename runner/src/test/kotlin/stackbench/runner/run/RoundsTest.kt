package stackbench.runner.run

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Estimates
import stackbench.runner.plan.Planner
import stackbench.runner.results.Fixtures
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.time.Duration

/** Processes in the plan and the rounds of --until-decided, without a server. */
class RoundsTest {
    private fun suite(extra: String) = SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: a, stack: tomcat}, {name: b, stack: tomcat}]
        endpoints: [{kind: cpu, strategies: [direct], limit: 10000}]
        load: {connections: [10], warmup: 10s, duration: 10s}
        compare:
          - {name: a vs b, a: a/cpu-direct-limit10000/c10, b: b/cpu-direct-limit10000/c10}
        """.trimIndent() + "\n" + extra, "t.yaml",
    )

    @Test
    fun `processes interleave across configurations, windows nested in each, repetitions counting on`() {
        val plan = Planner.plan(suite("restart: app\nprocesses: 3\nrepetitions: 2"))
        assertThat(plan.cells.map { "${it.app.name}${it.process}r${it.repetition}" })
            .containsExactly("a1r1", "b1r1", "a1r2", "b1r2", "a2r3", "b2r3", "a2r4", "b2r4", "a3r5", "b3r5", "a3r6", "b3r6")
        assertThat(plan.cells.map { it.processLabel }.distinct()).containsExactly("a#1", "b#1", "a#2", "b#2", "a#3", "b#3")
        assertThat(plan.processes to plan.windows).isEqualTo(3 to 2)
        // every process of every app is started and primed
        assertThat(Estimates.priming(plan.cells, restartApp = true)).isEqualTo(stackbench.runner.suite.Defaults.PRIME_ESTIMATE.multipliedBy(6))
    }

    @Test
    fun `with restart cell every window is a process of its own, and without processes the plan is as before`() {
        val cell = Planner.plan(suite("processes: 2\nrepetitions: 2"))
        assertThat(cell.cells).hasSize(8)
        assertThat(cell.cells.map { it.processLabel }.distinct()).hasSize(8)
        assertThat(cell.cells.first().processLabel).isEqualTo("a/cpu-direct-limit10000/c10#1")
        val before = Planner.plan(suite("repetitions: 3"))
        assertThat(before.cells.map { "${it.app.name}r${it.repetition}" }).containsExactly("ar1", "br1", "ar2", "br2", "ar3", "br3")
        assertThat(before.processes).isEqualTo(1)
    }

    @Test
    fun `processes out of range is an error at its line`() {
        val e = runCatching { suite("processes: 0") }.exceptionOrNull()
        assertThat(e).isInstanceOf(stackbench.runner.yaml.SuiteException::class.java)
        assertThat(e!!.message).contains("t.yaml:7:12: processes:")
    }

    @Test
    fun `K is fixed from the budget and the plan's estimate of a round, and capped`() {
        val plan = Planner.plan(suite("restart: app\nprocesses: 2\nrepetitions: 1"))
        val round = Rounds.estimate(Rounds.cells(plan, setOf("a/cpu-direct-limit10000/c10", "b/cpu-direct-limit10000/c10"), emptyList(), 0), plan)
        assertThat(Rounds.maxLooks(plan, round.minusSeconds(1))).isEqualTo(1)
        assertThat(Rounds.maxLooks(plan, round)).isEqualTo(2)
        assertThat(Rounds.maxLooks(plan, round.multipliedBy(2).plusSeconds(1))).isEqualTo(3)
        assertThat(Rounds.maxLooks(plan, Duration.ofHours(24))).isEqualTo(stackbench.runner.suite.Ranges.MAX_LOOKS)
    }

    @Test
    fun `a round is one more process of each open configuration, numbered after every process so far`() {
        val plan = Planner.plan(suite("restart: app\nprocesses: 2\nrepetitions: 2"))
        val done = plan.cells.map { Fixtures.cell(it) }
        val round = Rounds.cells(plan, setOf("b/cpu-direct-limit10000/c10"), done, 8)
        assertThat(round.map { "${it.index} ${it.key} ${it.processLabel}" })
            .containsExactly("9 b/cpu-direct-limit10000/c10/r5 b#3", "10 b/cpu-direct-limit10000/c10/r6 b#3")
        // each its place in the new process, as the planner numbers them (the profiler's `alternate` and compile-first read it)
        assertThat(round.map { it.window }).containsExactly(1, 2)
        // restart: cell: one more cell, its own process
        val cellPlan = Planner.plan(suite("repetitions: 3"))
        val next = Rounds.cells(cellPlan, setOf("a/cpu-direct-limit10000/c10"), cellPlan.cells.map { Fixtures.cell(it) }, 6)
        assertThat(next.map { it.key to it.processLabel }).containsExactly("a/cpu-direct-limit10000/c10/r4" to "a/cpu-direct-limit10000/c10#4")
    }
}
