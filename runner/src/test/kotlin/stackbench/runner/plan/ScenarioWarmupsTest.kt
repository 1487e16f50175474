package stackbench.runner.plan

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.Stage
import stackbench.runner.suite.SuiteParser
import java.time.Duration

/** A scenario's warm-up in the plan: the cell's warm-up bounds, `plan`'s words, and the load each warm-up run drives. */
class ScenarioWarmupsTest {
    private fun cell(warmup: String, scale: Double = 1.0): Cell = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: a, stack: tomcat}]
        endpoints: [{kind: todo, method: [GET, POST]}]
        load:
          driver: k6
          model: scenario
          scenario:
            name: warm
            users: [{duration: 1s, target: 16}, {duration: 30s, target: 16}]
            steps: [POST /todo, GET /todo]
            $warmup
        """.trimIndent(), "s.yaml",
    ), scale = scale).cells.first()

    private fun shape(c: Cell) = c.load.shape as LoadShape.Scenario

    @Test
    fun `without a warm-up the scenario is planned cold, as before`() {
        val c = cell("")
        assertThat(c.load.settings.warmup).isEqualTo(Duration.ZERO)
        assertThat(c.load.describe()).contains(", no warm-up").doesNotContain("warm-up 16")
        assertThat(ScenarioWarmups.shape(shape(c), Duration.ofSeconds(5))).isNull()
    }

    @Test
    fun `own stages, the cell's warm-up is their length, plan shows them, and the warm-up run drives them with no warm-up of its own`() {
        val c = cell("warmup: [{duration: 20s, target: 16}]")
        assertThat(c.load.settings.warmup).isEqualTo(Duration.ofSeconds(20))
        assertThat(c.load.settings.warmupMax).isEqualTo(Duration.ofSeconds(20))
        // the measured window is the measured stages alone
        assertThat(c.load.settings.length).isEqualTo(stackbench.runner.suite.LoadLength.Timed(Duration.ofSeconds(31)))
        assertThat(c.load.describe()).contains("users 16 in 1s → 16 in 30s, POST /todo then GET /todo; warm-up 16 in 20s (20s, not measured)")
        val warm = ScenarioWarmups.shape(shape(c), Duration.ofSeconds(99))!!
        assertThat(warm.scenario.profile.stages).containsExactly(Stage(Duration.ofSeconds(20), 16))
        assertThat(warm.scenario.warmup).isNull()
        assertThat(warm.calls).isEqualTo(shape(c).calls)
    }

    @Test
    fun `the steady-state watch, the cell's warm-up bounds, and each run holds the first measured stage's target`() {
        val c = cell("warmup: {min: 10s, max: 60s}")
        assertThat(c.load.settings.warmup).isEqualTo(Duration.ofSeconds(10))
        assertThat(c.load.settings.warmupMax).isEqualTo(Duration.ofSeconds(60))
        assertThat(c.load.describe()).contains("; warm-up at 16 until steady (the lab's watch), 10s to 1m, not measured")
        assertThat(ScenarioWarmups.shape(shape(c), Duration.ofSeconds(60))!!.scenario.profile.stages)
            .containsExactly(Stage(Duration.ofSeconds(1), 16), Stage(Duration.ofSeconds(59), 16))
        // a slice of one second (an app without a counter of its own warms up slice by slice)
        assertThat(ScenarioWarmups.shape(shape(c), Duration.ofSeconds(1))!!.scenario.profile.stages)
            .containsExactly(Stage(Duration.ofMillis(250), 16), Stage(Duration.ofMillis(750), 16))
    }

    @Test
    fun `--scale shortens the warm-up with the stages`() {
        val c = cell("warmup: [{duration: 20s, target: 16}]", scale = 0.1)
        assertThat(c.load.settings.warmup).isEqualTo(Duration.ofSeconds(2))
    }

    @Test
    fun `a held target is the first measured stage's, or the highest when that is 0`() {
        val s = shape(cell("warmup: steady")).scenario
        assertThat(ScenarioWarmups.heldTarget(s)).isEqualTo(16)
        val zeroFirst = s.copy(profile = s.profile.withStages(listOf(Stage(Duration.ofSeconds(5), 0), Stage(Duration.ofSeconds(5), 30))))
        assertThat(ScenarioWarmups.heldTarget(zeroFirst)).isEqualTo(30)
    }
}
