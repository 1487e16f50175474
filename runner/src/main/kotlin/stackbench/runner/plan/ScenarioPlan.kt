package stackbench.runner.plan

import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.Scenario
import stackbench.runner.suite.Suite
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem

/** Resolves a scenario's steps (`POST /todo`) to the suite's endpoint calls, each with its body, auth and expected status. */
object ScenarioPlan {
    /** The calls of [scenario]'s steps, in order, among those the suite's endpoints make on [app]; an unknown step is a suite problem at its line. */
    fun calls(suite: Suite, app: AppConfig, scenario: Scenario): List<EndpointCall> {
        val known = suite.endpoints.filter { it.runsOn(app) }.flatMap { Planner.calls(it) }
        val byRequest = known.associateBy { "${it.method} ${it.path}" }
        val problems = scenario.steps.filter { it.request !in byRequest }.map { step ->
            SuiteProblem(suite.source, step.line, step.column, "load.scenario.steps",
                "'${step.request}' is not a request of this suite's endpoints" + if (known.isEmpty()) "" else " on ${app.name}",
                if (known.isEmpty()) "add the endpoint under endpoints: (e.g. todo: { methods: [GET, POST] })"
                else "one of: ${byRequest.keys.joinToString()}")
        }
        if (problems.isNotEmpty()) throw SuiteException(problems.distinct())
        return scenario.steps.map { byRequest.getValue(it.request) }
    }
}
