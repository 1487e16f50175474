package stackbench.runner.gate

import stackbench.runner.results.staged
import stackbench.runner.plan.Planner
import stackbench.runner.results.Fixtures
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Path

/** Small runs of a two-configuration suite, built in code: each configuration measured by [processes] app processes, one window each. */
object GateFixtures {
    const val PLATFORM = "platform/io-blocking-delay100/c100"
    const val VIRTUAL = "virtual/io-blocking-delay100/c100"

    /** Throughput of each window, a little noise around 1,000 req/s (±0.6 %), the same in every run unless scaled. */
    private val noise = listOf(1.000, 0.994, 1.006, 0.998, 1.003)

    fun run(
        id: String, startedAt: String, suite: String = "t", processes: Int = 3, scale: Map<String, Double> = emptyMap(),
        p99Scale: Map<String, Double> = emptyMap(), host: String = "test", commit: String = "aaaaaaa",
    ): RunResult {
        val parsed = SuiteParser(MachineFacts(2)).parse(
            """
            name: $suite
            apps: [{name: platform, stack: tomcat}, {name: virtual, stack: tomcat, virtual-threads: true}]
            endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
            load: {connections: [100]}
            restart: app
            processes: $processes
            repetitions: 1
            """.trimIndent(), "$suite.yaml",
        )
        val cells = Planner.plan(parsed).cells.mapIndexed { i, c ->
            val base = if (c.app.name == "platform") 1000.0 else 1500.0
            val t = base * noise[i % noise.size] * (scale[c.configKey] ?: 1.0)
            val cell = Fixtures.cell(c, throughput = t)
            cell.staged(measured = cell.window.measured!!.let { m ->
                m.copy(latency = m.latency.copy(p99 = m.latency.p99!! * noise[(i + 2) % noise.size] * (p99Scale[c.configKey] ?: 1.0)))
            })
        }
        return RunResult(
            run = Fixtures.info(cells.size).copy(id = id, suite = suite, startedAt = startedAt, finishedAt = startedAt, status = RunStatus.COMPLETE, processes = processes),
            environment = Fixtures.environment().copy(hostname = host, gitCommit = commit, gitDirty = false),
            cells = cells,
        )
    }

    /** [result] written as a results folder under [dir], named by its id. */
    fun write(result: RunResult, dir: Path): Path = dir.resolve(result.run.id).also { ResultsStore(it).write(result) }
}
