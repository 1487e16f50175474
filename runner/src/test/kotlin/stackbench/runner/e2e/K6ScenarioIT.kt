package stackbench.runner.e2e

import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import stackbench.runner.testing.RunnerCommand
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.TestJvm
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * A k6 scenario suite as a user runs it (the runner jar, a real Tomcat, real k6): users ramped, POST then GET
 * /todo with think time, on one k6 instance and split over two, whose merged count is the sum of the parts.
 */
@Background
@ResourceLock(SharedMachine.LANE_2)
class K6ScenarioIT {
    private val home = Path.of(System.getProperty("stackbench.home"))

    @ParameterizedTest(name = "over {0} k6 instance(s)")
    @ValueSource(ints = [1, 2])
    fun `a scenario runs end to end, split or not, and leaves no process`(instances: Int, @TempDir dir: Path) {
        Needs.that(Files.isExecutable(home.resolve(".tools/bin/k6")), "k6 is not installed in .tools/bin")
        val pinned = if (Runtime.getRuntime().availableProcessors() >= 2) "cpuset: [${Runtime.getRuntime().availableProcessors() - 1}]," else ""
        val suite = dir.resolve("k6-it.yaml")
        Files.writeString(suite, """
            name: k6-it
            apps: [{name: tc, stack: tomcat, jvm-args: [${TestJvm.C1_ONLY}]}]
            profile: {cpus: 1, $pinned memory: 512MiB, start-cpus: all}
            endpoints: [{kind: todo, method: [GET, POST]}]
            load:
              driver: k6
              model: scenario
              instances: $instances
              timeout: 5s
              scenario: {name: todo, users: [{duration: 2s, target: 4}, {duration: 3s, target: 4}], steps: [POST /todo, GET /todo], think: 50ms..100ms}
            repetitions: 1
        """.trimIndent())
        val out = dir.resolve("results")
        val console = dir.resolve("console.txt")
        val process = ProcessBuilder(RunnerCommand.of("run", suite.toString(), "--out", out.toString(), "--no-install", "--fast-start"))
            .redirectErrorStream(true).redirectOutput(console.toFile()).start()
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).`as`("the run finished in time").isTrue()
        assertThat(process.exitValue()).`as`(Files.readString(console)).isZero()

        val result = ResultsStore.read(out)
        assertThat(result.run.status).isEqualTo(RunStatus.COMPLETE)
        val cell = result.cells.single()
        assertThat(cell.key).isEqualTo("tc/scenario-todo/r1")
        assertThat(cell.status).`as`(cell.reason ?: "").isEqualTo(CellStatus.OK)
        assertThat(cell.load.instances).isEqualTo(instances)
        val m = cell.window.measured!!
        assertThat(m.model).isEqualTo("scenario")
        assertThat(m.statusCodes.keys).containsExactly("200", "201")
        assertThat(m.statusCodes["200"]).isEqualTo(m.statusCodes["201"]) // every iteration: POST, then GET
        assertThat(m.successes).isEqualTo(m.responses)
        assertThat(m.errors).isEmpty()
        assertThat(m.dropped).isZero()
        assertThat(m.wallSeconds).isGreaterThanOrEqualTo(5.0)
        val measured = out.resolve(cell.folder).resolve("measured")
        assertThat(Files.readString(measured.resolve("script.js"))).contains("executor: \"ramping-vus\"", "sleep(0.05 + Math.random() * 0.05);")
        if (instances == 2) {
            val split = Regex("""split over 2 k6 instances \(execution segments 0,1/2,1\): (\d+) \+ (\d+) = (\d+) requests""")
                .find(m.notes.joinToString("\n"))!!.groupValues.drop(1).map { it.toLong() }
            assertThat(split[0]).isPositive()
            assertThat(split[1]).isPositive()
            assertThat(split[0] + split[1]).isEqualTo(split[2]).isEqualTo(m.responses)
            assertThat(measured.resolve("instance-0/stdout.txt")).isRegularFile()
            assertThat(measured.resolve("instance-1/stdout.txt")).isRegularFile()
        }
        Thread.sleep(500)
        val left = ProcessHandle.allProcesses().filter { p -> p.info().arguments().map { a -> a.any { it.contains(out.toString()) } }.orElse(false) }.toList()
        assertThat(left).isEmpty()
    }
}
