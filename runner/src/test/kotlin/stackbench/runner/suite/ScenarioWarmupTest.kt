package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import java.time.Duration

/** `load.scenario.warmup`: a scenario's own warm-up stages, or the lab's steady-state watch; none unless declared. */
class ScenarioWarmupTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))

    private fun suite(warmup: String) = """
        name: t
        apps: [{name: tc, stack: tomcat}]
        endpoints: [{kind: todo, method: [GET, POST]}]
        load:
          driver: k6
          model: scenario
          scenario:
            users: [{ duration: 1s, target: 20 }, { duration: 30s, target: 20 }]
            steps: [GET /todo]
        $warmup
    """.trimIndent().replace("\n$", "") + "\n"

    private fun scenario(warmup: String): Scenario =
        (parser.parse(suite(warmup.prependIndent("    ")), "s.yaml").load.model as LoadModel.Scenario).scenario

    private fun problems(warmup: String): List<String> =
        ((runCatching { parser.parse(suite(warmup.prependIndent("    ")), "s.yaml") }.exceptionOrNull() as? SuiteException)?.problems
            ?: error("expected the suite to be rejected")).map(::line)

    private fun line(p: SuiteProblem) = "${p.line}:${p.column} ${p.key}: ${p.message}"

    @Test
    fun `a scenario without warmup keeps its cold design`() {
        assertThat(scenario("").warmup).isNull()
    }

    @Test
    fun `its own stages, run before the measured ones`() {
        val w = scenario("warmup: [{ duration: 20s, target: 20 }, { duration: 10s, target: 40 }]").warmup
        assertThat(w).isEqualTo(ScenarioWarmup.Stages(listOf(Stage(Duration.ofSeconds(20), 20), Stage(Duration.ofSeconds(10), 40))))
        assertThat(w!!.min).isEqualTo(Duration.ofSeconds(30))
        assertThat(w.max).isEqualTo(Duration.ofSeconds(30))
    }

    @Test
    fun `the lab's steady-state watch, with its bounds or the defaults`() {
        assertThat(scenario("warmup: { min: 15s, max: 90s }").warmup).isEqualTo(ScenarioWarmup.Steady(Duration.ofSeconds(15), Duration.ofSeconds(90)))
        assertThat(scenario("warmup: steady").warmup).isEqualTo(ScenarioWarmup.Steady(Defaults.WARMUP, ScenarioReader.DEFAULT_STEADY_MAX))
        assertThat(scenario("warmup: { max: 5m }").warmup).isEqualTo(ScenarioWarmup.Steady(Defaults.WARMUP, Duration.ofMinutes(5)))
    }

    @Test
    fun `--scale shortens the warm-up as it does the stages`() {
        assertThat(scenario("warmup: [{ duration: 20s, target: 20 }]").scaled(0.1).warmup)
            .isEqualTo(ScenarioWarmup.Stages(listOf(Stage(Duration.ofSeconds(2), 20))))
        assertThat(scenario("warmup: { min: 10s, max: 60s }").scaled(0.1).warmup)
            .isEqualTo(ScenarioWarmup.Steady(Duration.ofSeconds(1), Duration.ofSeconds(6)))
    }

    @Test
    fun `a wrong warm-up is named at its line and key`() {
        assertThat(problems("warmup: cold")).containsExactly("10:13 load.scenario.warmup: 'cold' is not a warm-up")
        assertThat(problems("warmup: { min: 60s, max: 10s }")).containsExactly("10:30 load.scenario.warmup.max: is shorter than min (1m)")
        assertThat(problems("warmup: { min: 10s, until: steady }")).containsExactly("10:25 load.scenario.warmup.until: is not a known key")
        assertThat(problems("warmup: [{ duration: 20s }]")).containsExactly("10:14 load.scenario.warmup[0].target: is required")
        assertThat(problems("warmup: []")).containsExactly("10:13 load.scenario.warmup: must not be empty")
        assertThat(problems("warmup: [{ duration: 20s, target: 0 }]")).containsExactly("10:13 load.scenario.warmup: every stage's target is 0: no load")
    }
}
