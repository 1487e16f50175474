package stackbench.runner.plan

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.time.Duration

class EstimatesTest {
    @Test
    fun `the time left keeps the pace of the cells already finished`() {
        // the virtual-threads suite: 2 cells estimated at 36 s each took 105 s each (a fresh app primed per cell,
        // a counted run bounded by 10 threads, not by 30 connections)
        val left = Estimates.paced(Duration.ofMinutes(10), spent = Duration.ofSeconds(210), planned = Duration.ofSeconds(72))
        assertThat(left.toSeconds()).isEqualTo(1750)
        // nothing finished yet: the plan's own estimate
        assertThat(Estimates.paced(Duration.ofMinutes(10), Duration.ZERO, Duration.ZERO)).isEqualTo(Duration.ofMinutes(10))
        // faster than planned shortens it too
        assertThat(Estimates.paced(Duration.ofMinutes(10), Duration.ofSeconds(30), Duration.ofSeconds(60))).isEqualTo(Duration.ofMinutes(5))
    }

    @Test
    fun `compile-first counts before a configuration's first window in its process, not before its later ones`() {
        val suite = SuiteParser(MachineFacts(2)).parse(
            "name: t\napps: [{name: a, stack: tomcat}]\nendpoints: [{kind: noop}]\n" +
                "load: {connections: [1], warmup: 5s, warmup-max: 5s, compile-first: 60s, duration: 10s}\nrepetitions: 3\nrestart: app\n", "s.yaml")
        val cells = Planner.plan(suite).cells
        assertThat(cells.map { it.window }).containsExactly(1, 2, 3)
        val (first, second) = cells.map { Estimates.warmup(it) }
        // the warm-up's 5 s, and half the compile-first cap before the first window only
        assertThat(first).isEqualTo(Duration.ofSeconds(35))
        assertThat(second).isEqualTo(Duration.ofSeconds(5))
    }

    @Test
    fun `warmup-reconnect counts the warm-up twice`() {
        val suite = SuiteParser(MachineFacts(2)).parse(
            "name: t\napps: [{name: a, stack: tomcat}]\nendpoints: [{kind: noop}]\n" +
                "load: {connections: [1], warmup: 5s, warmup-max: 25s, warmup-reconnect: true, duration: 10s}\n", "s.yaml")
        // 5 s and half the way to 25 s, twice
        assertThat(Estimates.warmup(Planner.plan(suite).cells.first())).isEqualTo(Duration.ofSeconds(30))
    }
}
