package stackbench.runner.e2e

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.probe.WindowFigures
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import stackbench.runner.testing.Background
import stackbench.runner.testing.Needs
import stackbench.runner.testing.RunnerCommand
import stackbench.runner.testing.SharedMachine
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * A k6 scenario that warms up before it measures (`scenario.warmup:` its own stages), as a user runs it: the runner
 * jar, the example Quarkus service's orders (a 70/30 mix of GET and POST, examples/own-app/quarkus), real k6. The
 * warm-up runs its own stages and is recorded, the measured window holds the measured stages alone, and its
 * steadiness is read from k6's answers a second (the jar counts none of its own).
 */
@Background
@ResourceLock(SharedMachine.LANE_2)
class K6ScenarioWarmIT {
    private val home = Path.of(System.getProperty("stackbench.home"))
    private val jar = home.resolve("examples/own-app/quarkus/target/own-app-quarkus.jar")

    @Test
    fun `a scenario's own warm-up stages run first and are recorded, the window measures the steady stage alone, and its steadiness is recorded`(@TempDir dir: Path) {
        Needs.that(Files.isExecutable(home.resolve(".tools/bin/k6")), "k6 is not installed in .tools/bin")
        Needs.that(Files.isRegularFile(jar), "the example own service is not built: ./mvnw -pl examples/own-app/quarkus package")
        val pinned = if (Runtime.getRuntime().availableProcessors() >= 2) "cpuset: [${Runtime.getRuntime().availableProcessors() - 1}]," else ""
        val suite = dir.resolve("k6-warm-it.yaml")
        Files.writeString(suite, """
            name: k6-warm-it
            apps:
              - name: quarkus
                jar: $jar
                jvm-args: ["-Dquarkus.http.port={port}", "-Dquarkus.http.host={address}"]
                ready: {path: /q/health/ready, status: 200, timeout: 60s}
            profile: {cpus: 1, $pinned memory: 512MiB, start-cpus: all}
            endpoints:
              - {kind: http, name: read, path: "/orders/{id}", params: {id: [1]}, check: {json: /id, equals: 1}}
              - {kind: http, name: write, method: POST, path: /orders, body: '{"item": "book", "quantity": 2}', status: 201}
            load:
              driver: k6
              model: scenario
              timeout: 5s
              scenario:
                name: orders
                warmup: [{duration: 4s, target: 4}, {duration: 4s, target: 4}]
                users: [{duration: 1s, target: 4}, {duration: 9s, target: 4}]
                mix: [{request: GET /orders/1, weight: 7}, {request: POST /orders, weight: 3}]
                think: 20ms..40ms
            repetitions: 1
        """.trimIndent())
        val plan = ProcessBuilder(RunnerCommand.of("plan", suite.toString())).redirectErrorStream(true).start()
        val planText = plan.inputStream.bufferedReader().readText()
        assertThat(plan.waitFor(60, TimeUnit.SECONDS)).isTrue()
        assertThat(planText).`as`("plan shows the warm-up").contains("warm-up 4 in 4s → 4 in 4s (8s, not measured)")

        val out = dir.resolve("results")
        val console = dir.resolve("console.txt")
        val process = ProcessBuilder(RunnerCommand.of("run", suite.toString(), "--out", out.toString(), "--no-install"))
            .redirectErrorStream(true).redirectOutput(console.toFile()).start()
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).`as`("the run finished in time").isTrue()
        assertThat(process.exitValue()).`as`(Files.readString(console)).isZero()

        val result = ResultsStore.read(out)
        assertThat(result.run.status).isEqualTo(RunStatus.COMPLETE)
        val cell = result.cells.single()
        assertThat(cell.key).isEqualTo("quarkus/scenario-orders/r1")
        assertThat(cell.status).`as`(cell.reason ?: "").isEqualTo(CellStatus.OK)

        // the warm-up happened: its own stages, one k6 run, recorded
        val warm = cell.warmup.record!!
        assertThat(warm.endedBy).isEqualTo("stages")
        assertThat(warm.seconds).isBetween(7.5, 20.0)
        assertThat(warm.slices).hasSizeGreaterThanOrEqualTo(6)
        assertThat(warm.slices.map { it.rate }.takeLast(3)).allMatch { it > 0 }
        assertThat(cell.load.warmupMs).isEqualTo(8000)
        assertThat(cell.timings!!.warmupMs).isGreaterThanOrEqualTo(7500)
        val folder = out.resolve(cell.folder)
        assertThat(Files.readString(folder.resolve("warmup/script.js"))).contains("duration: \"4s\", target: 4 }, { duration: \"4s\"")

        // the measured window excluded it: the measured stages alone, in their own k6 run
        val m = cell.window.measured!!
        assertThat(m.model).isEqualTo("scenario")
        assertThat(m.wallSeconds).isBetween(9.5, 16.0)
        assertThat(Files.readString(folder.resolve("measured/script.js"))).contains("duration: \"1s\", target: 4 }, { duration: \"9s\"").doesNotContain("\"4s\"")
        assertThat(m.statusCodes.keys).containsExactlyInAnyOrder("200", "201")
        assertThat(m.errors).isEmpty()
        assertThat(m.successes).isEqualTo(m.responses)

        // its steadiness recorded, from k6's answers a second
        val shape = cell.window.shape!!
        assertThat(shape.shape).isIn("flat", "warming", "slowing", "no-steady-state")
        assertThat(shape.reason).startsWith(WindowFigures.DRIVER_SERIES)
        println("K6ScenarioWarmIT: warm-up ${warm.seconds} s (${warm.endedBy}), slices ${warm.slices.map { it.rate }}; window ${m.wallSeconds} s, " +
            "${m.throughput} req/s, p50 ${m.latency.p50} ms, p99 ${m.latency.p99} ms, shape ${shape.shape} (${shape.reason}), precision ${shape.precision}; " +
            "per second ${m.perSecond.map { it.successes }}")
        val report = Files.readString(out.resolve("report.html"))
        assertThat(report).contains("ended stages; measured window ${shape.shape}")
    }
}
