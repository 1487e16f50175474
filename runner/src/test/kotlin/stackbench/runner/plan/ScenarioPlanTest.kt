package stackbench.runner.plan

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.runner.suite.LoadLength
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import stackbench.runner.yaml.SuiteException
import java.time.Duration

/** A scenario plans to one cell per app and repetition, its steps resolved to the suite's endpoint calls. */
class ScenarioPlanTest {
    private fun suite(steps: String, extra: String = "") = SuiteParser(MachineFacts(2)).parse(
        """
        name: t
        apps: [{name: a, stack: tomcat}, {name: b, stack: webflux}]
        endpoints: [{kind: todo, method: [GET, POST]}, {kind: noop}]
        load:
          driver: k6
          model: scenario
          $extra
          scenario:
            name: todo
            users: [{duration: 10s, target: 20}, {duration: 20s, target: 20}]
            steps: $steps
            think: 1s..2s
        repetitions: 2
        """.trimIndent(), "s.yaml",
    )

    @Test
    fun `one cell per app and repetition, keyed by the scenario's name`() {
        val plan = Planner.plan(suite("[POST /todo, GET /todo, GET /noop]", "instances: 2"))
        assertThat(plan.cells.map { it.key }).containsExactly("a/scenario-todo/r1", "b/scenario-todo/r1", "a/scenario-todo/r2", "b/scenario-todo/r2")
        val cell = plan.cells.first()
        assertThat(cell.calls.map { "${it.method} ${it.path}" }).containsExactly("POST /todo", "GET /todo", "GET /noop")
        assertThat(cell.calls[0].body).isEqualTo(EndpointCall.POSTED_TODO)
        assertThat(cell.calls[0].needsCredentials).isTrue()
        assertThat(cell.endpoint).isEqualTo(cell.calls[0])
        assertThat(cell.load.settings.length).isEqualTo(LoadLength.Timed(Duration.ofSeconds(30)))
        assertThat(cell.load.settings.warmup).isEqualTo(Duration.ZERO)
        assertThat(cell.load.settings.instances).isEqualTo(2)
        assertThat(cell.load.describe()).isEqualTo(
            "k6 scenario todo: users 20 in 10s → 20 in 20s, POST /todo then GET /todo then GET /noop, think 1s..2s over 2 instances for 30s, no warm-up, timeout 30s",
        )
    }

    @Test
    fun `--scale shortens every stage, each to at least a second`() {
        val cell = Planner.plan(suite("[GET /todo]"), scale = 0.05).cells.first()
        val shape = cell.load.shape as LoadShape.Scenario
        assertThat(shape.scenario.profile.stages.map { it.duration }).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1))
        assertThat(cell.load.settings.length).isEqualTo(LoadLength.Timed(Duration.ofSeconds(2)))
    }

    @Test
    fun `a step that is no request of the suite's endpoints is named at its line, with the known ones`() {
        assertThatThrownBy { Planner.plan(suite("[POST /todo, DELETE /todo]")) }.isInstanceOf(SuiteException::class.java)
            .hasMessage(
                "s.yaml:11:25: load.scenario.steps: 'DELETE /todo' is not a request of this suite's endpoints on a\n" +
                    "  hint: one of: GET /todo, POST /todo, GET /noop",
            )
    }
}
