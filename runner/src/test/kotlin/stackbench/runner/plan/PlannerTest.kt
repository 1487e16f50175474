package stackbench.runner.plan

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.suite.LoadLength
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.time.Duration

class PlannerTest {
    private fun suite(yaml: String) = SuiteParser(MachineFacts(2)).parse(yaml.trimIndent(), "s.yaml")

    private val twoByTwo = suite(
        """
        name: t
        apps: [{name: a, stack: tomcat}, {name: b, stack: webflux}]
        endpoints:
          - kind: cpu
            strategies: [direct, coop]
            limit: [1000, 10000]
            batch: [10, 100]
          - kind: io
            strategies: [blocking]
            delay: [100ms]
            apps: [a]
        load: {connections: [10, 50], warmup: 10s, duration: 20s}
        repetitions: 2
        """,
    )

    @Test
    fun `every combination is spelled out`() {
        val plan = Planner.plan(twoByTwo)
        // per app: cpu direct (2 limits) + coop (2 limits × 2 batches) = 6 calls; app a also io = 1
        // (6 + 7) calls × 2 connection levels × 2 repetitions
        assertThat(plan.cells).hasSize((6 + 7) * 2 * 2)
        assertThat(plan.cells.map { it.key }).doesNotHaveDuplicates()
        assertThat(plan.cells.map { it.index }).containsExactlyElementsOf(1..plan.cells.size)
        assertThat(plan.cells.first().key).isEqualTo("a/cpu-direct-limit1000/c10/r1")
        assertThat(plan.cells.filter { it.endpoint.strategy == "coop" }.map { it.endpoint.path }.distinct())
            .containsExactly("/cpu/coop?limit=1000&batch=10", "/cpu/coop?limit=1000&batch=100", "/cpu/coop?limit=10000&batch=10", "/cpu/coop?limit=10000&batch=100")
        assertThat(plan.cells.filter { it.app.name == "b" }.map { it.endpoint.kind }).doesNotContain(EndpointKind.IO)
    }

    @Test
    fun `repetitions are interleaved, not back to back`() {
        val plan = Planner.plan(twoByTwo)
        val half = plan.cells.size / 2
        assertThat(plan.cells.take(half).map { it.repetition }).containsOnly(1)
        assertThat(plan.cells.drop(half).map { it.repetition }).containsOnly(2)
        assertThat(plan.cells.take(half).map { it.configKey }).containsExactlyElementsOf(plan.cells.drop(half).map { it.configKey })
    }

    @Test
    fun `scale shortens warm-up and measured time and the estimate follows`() {
        val full = Planner.plan(twoByTwo)
        val tenth = Planner.plan(twoByTwo, scale = 0.1)
        assertThat(tenth.cells.first().load.settings.warmup).isEqualTo(Duration.ofSeconds(1))
        assertThat(tenth.cells.first().load.settings.length).isEqualTo(LoadLength.Timed(Duration.ofSeconds(2)))
        assertThat(tenth.estimatedDuration).isLessThan(full.estimatedDuration)
        // 52 cells × (8 s overhead + 10 s warm-up + 20 s load), and a fresh app primed for each (restart: cell), 30 s
        assertThat(full.estimatedDuration).isEqualTo(Duration.ofSeconds(52L * 38 + 52L * 30))
        // with restart: app, one primed process per app configuration (2)
        val kept = Planner.plan(twoByTwo.copy(restart = stackbench.runner.suite.Restart.APP))
        assertThat(kept.estimatedDuration).isEqualTo(Duration.ofSeconds(52L * 38 + 2L * 30))
    }

    @Test
    fun `duration-max lets a closed-model window grow to count its round trips, and the estimate takes it half way`() {
        val capped = suite(
            """
            name: t
            apps: [{stack: tomcat}]
            endpoints: [{kind: cpu, strategies: [direct], limit: [300000]}]
            load: {connections: [400], warmup: 10s, duration: 30s, duration-max: 3m}
            repetitions: 1
            """,
        )
        val cell = Planner.plan(capped).cells.single()
        assertThat(cell.load.settings.durationMax).isEqualTo(Duration.ofMinutes(3))
        assertThat(cell.load.windowCap).isEqualTo(Duration.ofMinutes(3))
        assertThat(cell.load.describe()).contains("longer where it needs to hold 20 round trips a connection, at most 3m")
        // 30 s + half of the 150 s it may grow by
        assertThat(Estimates.measured(cell)).isEqualTo(Duration.ofSeconds(105))
        // scaled, the window shrinks but may still grow to the suite's cap, not to its own 30 s only
        val tenth = Planner.plan(capped, scale = 0.1).cells.single()
        assertThat(tenth.load.settings.length).isEqualTo(LoadLength.Timed(Duration.ofSeconds(3)))
        assertThat(tenth.load.windowCap).isEqualTo(Duration.ofMinutes(3))
        // without it: never past the suite's own length, and unscaled not at all
        val plain = Planner.plan(capped.copy(load = capped.load.copy(settings = capped.load.settings.copy(durationMax = null))))
        assertThat(plain.cells.single().load.windowCap).isNull()
        assertThat(Planner.plan(capped.copy(load = capped.load.copy(settings = capped.load.settings.copy(durationMax = null))), scale = 0.1).cells.single().load.windowCap)
            .isEqualTo(Duration.ofSeconds(30))
    }

    @Test
    fun `prime false reaches every cell, says so in the plan, and takes priming out of the estimate`() {
        val primed = suite("name: t\napps: [{name: a, stack: tomcat}]\nendpoints: [{kind: noop}]\nload: {warmup: 5s, duration: 5s}\nrepetitions: 2")
        val unprimed = suite("name: t\napps: [{name: a, stack: tomcat}]\nendpoints: [{kind: noop}]\nload: {warmup: 5s, prime: false, duration: 5s}\nrepetitions: 2")
        assertThat(Planner.plan(primed).cells).allSatisfy { assertThat(it.load.settings.prime).isTrue() }
        val cells = Planner.plan(unprimed).cells
        assertThat(cells).hasSize(2).allSatisfy { assertThat(it.load.settings.prime).isFalse() }
        assertThat(cells.first().load.describe()).contains("warm-up 5s (not primed)")
        assertThat(Estimates.priming(Planner.plan(primed).cells, restartApp = false)).isEqualTo(stackbench.runner.suite.Defaults.PRIME_ESTIMATE.multipliedBy(2))
        assertThat(Estimates.priming(cells, restartApp = false)).isEqualTo(Duration.ZERO)
    }

    @Test
    fun `prime-max reaches every cell, says so in the plan, and shortens priming's estimate`() {
        val capped = Planner.plan(suite("name: t\napps: [{name: a, stack: tomcat}]\nendpoints: [{kind: noop}]\nload: {warmup: 5s, prime-max: 10s, duration: 5s}\nrepetitions: 2")).cells
        assertThat(capped).allSatisfy { assertThat(it.load.settings.primeMax).isEqualTo(Duration.ofSeconds(10)) }
        assertThat(capped.first().load.describe()).contains("warm-up 5s (primed at most 10s a stage)")
        assertThat(Estimates.priming(capped, restartApp = false)).isEqualTo(Duration.ofSeconds(20))
    }

    @Test
    fun `open-model cells get enough connections for the rate at the worst latency`() {
        val plan = Planner.plan(suite("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nrepetitions: 1\nload: {model: open, rates: [100, 2000], timeout: 2s}"))
        assertThat(plan.cells.map { it.load.shape }).containsExactly(LoadShape.Open(100.0, 200), LoadShape.Open(2000.0, 4000))
    }

    @Test
    fun `a capacity search is planned as a search, not as cells`() {
        val plan = Planner.plan(suite("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nload: {model: open, find: capacity, slo: {p99: 50ms}}\nrepetitions: 3"))
        assertThat(plan.cells).isEmpty()
        assertThat(plan.searches.map { it.key }).containsExactly("tomcat/noop/capacity/r1", "tomcat/noop/capacity/r2", "tomcat/noop/capacity/r3")
    }

    @Test
    fun `folder names are safe and ordered`() {
        val cell = Planner.plan(twoByTwo).cells[0]
        assertThat(cell.folder).isEqualTo("001-a_cpu-direct-limit1000_c10_r1")
    }

    @Test
    fun `only keeps the configurations it names, numbered in order, every repetition of each`() {
        val keys = setOf("a/cpu-coop-limit10000-batch100/c50", "b/cpu-direct-limit1000/c10")
        val plan = Planner.plan(twoByTwo.focused(keys, emptyList()))
        assertThat(plan.cells.map { it.key }).containsExactly(
            "a/cpu-coop-limit10000-batch100/c50/r1", "b/cpu-direct-limit1000/c10/r1",
            "a/cpu-coop-limit10000-batch100/c50/r2", "b/cpu-direct-limit1000/c10/r2",
        )
        assertThat(plan.cells.map { it.index }).containsExactly(1, 2, 3, 4)
        assertThat(plan.estimatedDuration).isLessThan(Planner.plan(twoByTwo).estimatedDuration)
    }

    @Test
    fun `only naming no configuration of the suite is a suite problem with the nearest one`() {
        org.assertj.core.api.Assertions.assertThatThrownBy { Planner.plan(twoByTwo.focused(setOf("a/cpu-direct-limit1000/c11"), emptyList())) }
            .isInstanceOf(stackbench.runner.yaml.SuiteException::class.java)
            .hasMessageContaining("only: 'a/cpu-direct-limit1000/c11' is not a configuration of this suite")
            .hasMessageContaining("did you mean 'a/cpu-direct-limit1000/c10'?")
        org.assertj.core.api.Assertions.assertThatThrownBy { Planner.plan(twoByTwo.focused(emptySet(), emptyList())) }
            .hasMessageContaining("it was narrowed to no configuration")
    }

    @Test
    fun `each cell knows its window within its process - the first, second and so on of the process's repetitions`() {
        val kept = suite(
            """
            name: t
            apps: [{name: a, stack: tomcat}, {name: b, stack: tomcat}]
            endpoints: [{kind: noop}]
            processes: 2
            repetitions: 3
            restart: app
            """,
        )
        val cells = Planner.plan(kept).cells
        assertThat(cells.map { Triple(it.app.name, it.process, it.window) }).containsExactly(
            Triple("a", 1, 1), Triple("b", 1, 1), Triple("a", 1, 2), Triple("b", 1, 2), Triple("a", 1, 3), Triple("b", 1, 3),
            Triple("a", 2, 1), Triple("b", 2, 1), Triple("a", 2, 2), Triple("b", 2, 2), Triple("a", 2, 3), Triple("b", 2, 3),
        )
        // a cell of its own process is that process's only window
        assertThat(Planner.plan(kept.copy(restart = stackbench.runner.suite.Restart.CELL)).cells.map { it.window }).containsOnly(1)
    }
}
