package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import java.time.Duration

/** `load: { model: scenario, scenario: … }` and `instances:`, read from suites. */
class ScenarioReaderTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))

    private fun suite(load: String) = "name: t\napps: [{name: tc, stack: tomcat}]\nendpoints: [{kind: todo, method: [GET, POST]}, {kind: noop}]\nload:\n$load\n"

    private fun problems(load: String): List<String> =
        ((runCatching { parser.parse(suite(load), "s.yaml") }.exceptionOrNull() as? SuiteException)?.problems
            ?: error("expected the suite to be rejected")).map(::line)

    private fun line(p: SuiteProblem) = "${p.line}:${p.column} ${p.key}: ${p.message}" + (p.hint?.let { " | $it" } ?: "")

    @Test
    fun `a users ramp with steps and a think range`() {
        val s = parser.parse(suite("""
          driver: k6
          model: scenario
          instances: 2
          scenario:
            name: todo
            users:
              - { duration: 60s, target: 1000 }
              - { duration: 120s, target: 1000 }
            steps: [POST /todo, GET /todo]
            think: 1s..2s
        """.trimIndent().prependIndent("  ")), "s.yaml")
        val model = s.load.model as LoadModel.Scenario
        assertThat(model.scenario).isEqualTo(Scenario(
            "todo",
            ScenarioProfile.Users(listOf(Stage(Duration.ofSeconds(60), 1000), Stage(Duration.ofSeconds(120), 1000))),
            listOf(ScenarioStep("POST", "/todo", 1, 13, 13), ScenarioStep("GET", "/todo", 1, 13, 25)),
            mixed = false, think = Think(Duration.ofSeconds(1), Duration.ofSeconds(2)),
        ))
        assertThat(s.load.settings.driver).isEqualTo(DriverCatalog.K6)
        assertThat(s.load.settings.length).isEqualTo(LoadLength.Timed(Duration.ofSeconds(180)))
        assertThat(s.load.settings.warmup).isEqualTo(Duration.ZERO)
        assertThat(s.load.settings.instances).isEqualTo(2)
    }

    @Test
    fun `an arrivals ramp with a weighted mix and a fixed pause`() {
        val s = parser.parse(suite("""
          driver: k6
          model: scenario
          scenario:
            arrivals: [{ duration: 30s, target: 200 }]
            max-users: 2000
            mix: [{ request: GET /todo, weight: 3 }, { request: POST /todo }]
            think: 1.5s
        """.trimIndent().prependIndent("  ")), "s.yaml")
        val sc = (s.load.model as LoadModel.Scenario).scenario
        assertThat(sc.name).isEqualTo("main")
        assertThat(sc.profile).isEqualTo(ScenarioProfile.Arrivals(listOf(Stage(Duration.ofSeconds(30), 200)), 2000))
        assertThat(sc.mixed).isTrue()
        assertThat(sc.steps.map { it.request to it.weight }).containsExactly("GET /todo" to 3, "POST /todo" to 1)
        assertThat(sc.think).isEqualTo(Think(Duration.ofMillis(1500), Duration.ofMillis(1500)))
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        value = [
            "oha with a scenario | {driver: oha, model: scenario, scenario: {users: [{duration: 1s, target: 1}], steps: [GET /todo]}} | 5:12 load.driver: oha drives a closed or open or capacity model only | use driver: k6 for scenario-model loads",
            "default driver      | {model: scenario, scenario: {users: [{duration: 1s, target: 1}], steps: [GET /todo]}} | 5:11 load.model: oha drives a closed or open or capacity model only | use driver: k6 for scenario-model loads",
            "no scenario         | {driver: k6, model: scenario} | 5:3 load.scenario: a scenario load needs its scenario | scenario: { users: [{ duration: 60s, target: 100 }], steps: [POST /todo, GET /todo], think: 1s..2s }",
            "both ramps          | {driver: k6, model: scenario, scenario: {users: [{duration: 1s, target: 1}], arrivals: [{duration: 1s, target: 1}], steps: [GET /todo]}} | 5:80 load.scenario.arrivals: give users (a closed ramp) or arrivals (an open one), not both |",
            "bad request         | {driver: k6, model: scenario, scenario: {users: [{duration: 1s, target: 1}], steps: [FETCH todo]}} | 5:88 load.scenario.steps: 'FETCH todo' is not a request | METHOD /path of one of the suite's endpoints, e.g. POST /todo",
            "bad think           | {driver: k6, model: scenario, scenario: {users: [{duration: 1s, target: 1}], steps: [GET /todo], think: 2s..1s}} | 5:107 load.scenario.think: '2s..1s' ends before it starts | write the shorter pause first: think: 1s..2s",
            "warmup              | {driver: k6, model: scenario, warmup: 5s, scenario: {users: [{duration: 1s, target: 1}], steps: [GET /todo]}} | 5:33 load.warmup: does not apply to a scenario: its ramp is measured whole, as the articles counted it | leave warmup out (a scenario starts on a fresh app and measures its ramp), or ramp slowly in a first stage",
            "duration            | {driver: k6, model: scenario, duration: 5s, scenario: {users: [{duration: 1s, target: 1}], steps: [GET /todo]}} | 5:33 load.duration: does not apply here: a scenario lasts as long as its stages |",
            "zero targets        | {driver: k6, model: scenario, scenario: {users: [{duration: 1s, target: 0}], steps: [GET /todo]}} | 5:51 load.scenario.users: every stage's target is 0: no load |",
            "scenario on closed  | {driver: k6, scenario: {steps: [GET /todo]}} | 5:16 load.scenario: does not apply here: only a scenario (model: scenario) takes it |",
            "instances on oha    | {driver: oha, instances: 2} | 5:28 load.instances: oha cannot split one load over several instances | use driver: k6 (execution segments), or leave instances out",
        ],
    )
    fun `a wrong scenario is named at its line and column`(case: String, load: String, expected: String, hint: String?) {
        assertThat(problems("  $load".replace("load: ", ""))).describedAs(case).contains(expected + (hint?.let { " | $it" } ?: ""))
    }
}
