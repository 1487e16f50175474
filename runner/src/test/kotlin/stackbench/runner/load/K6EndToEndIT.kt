package stackbench.runner.load

import stackbench.runner.testing.Foreground
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.load.LoadFixtures.request
import stackbench.runner.plan.EndpointCall
import stackbench.runner.plan.EndpointKind
import stackbench.runner.plan.LoadShape
import stackbench.runner.suite.LoadLength
import stackbench.runner.suite.Scenario
import stackbench.runner.suite.ScenarioProfile
import stackbench.runner.suite.ScenarioStep
import stackbench.runner.suite.Stage
import stackbench.runner.suite.Think
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/** k6 for real against a throwaway server on 127.0.0.1: one instance, and one load split over two. */
@Foreground
@Timeout(60)
class K6EndToEndIT {
    private val server = TestHttpServer()
    private val home = Path.of(System.getProperty("user.dir")).parent

    @AfterEach
    fun stop() = server.close()

    private fun k6(): Path = Drivers.find(DriverCatalog.K6, home).also {
        Needs.that(it != null, "k6 is not installed (install: ${DriverCatalog.K6.hint}): end-to-end run skipped")
    }!!

    @Test
    fun `the installed k6 is the pinned release, read from k6 version`() {
        k6()
        val located = Drivers.locate(DriverCatalog.K6, home)
        assertThat(located.version).isEqualTo(DriverCatalog.K6_VERSION)
        assertThat(located.versionLine).startsWith("k6 v${DriverCatalog.K6_VERSION} ")
    }

    @Test
    fun `closed model, two seconds`(@TempDir dir: Path) {
        val r = DriverProcess().drive(K6Driver(), request(dir, LoadShape.Closed(2), LoadLength.Timed(Duration.ofSeconds(2)), url = server.url("/noop")), k6())
        assertThat(r.responses).isPositive()
        assertThat(r.successes).isEqualTo(r.responses)
        assertThat(r.errors).isEmpty()
        assertThat(r.perSecond).hasSize(2)
        assertThat(r.wallSeconds).isBetween(2.0, 2.5)
        assertThat(r.latency.p50).isPositive()
    }

    private fun scenario(dir: Path): DriveRequest {
        val body = """{"id":11,"title":"Benchmark the stacks","description":null,"completed":false}"""
        val s = Scenario("todo", ScenarioProfile.Users(listOf(Stage(Duration.ofSeconds(1), 4), Stage(Duration.ofSeconds(1), 4))),
            listOf(ScenarioStep("POST", "/todo", 1, 1, 1), ScenarioStep("GET", "/noop", 1, 1, 1)), mixed = false, think = Think(Duration.ofMillis(20), Duration.ofMillis(40)))
        val shape = LoadShape.Scenario(s, listOf(EndpointCall(EndpointKind.TODO, null, emptyList(), "POST"), EndpointCall(EndpointKind.NOOP, null, emptyList())))
        val calls = listOf(HttpCall(server.url("/todo"), "POST", body, "user" to "password", 201), HttpCall(server.url("/noop"), "GET", null, null, 200))
        return DriveRequest(calls[0].url, "POST", body, "user" to "password", shape, LoadLength.Timed(s.duration), Duration.ofSeconds(2), 1, dir,
            expectedStatus = 201, scenarioCalls = calls)
    }

    @Test
    fun `a scenario split over two paused instances, resumed together and merged`(@TempDir dir: Path) {
        val exe = k6()
        val split = SplitRun().drive(K6Driver(), scenario(dir), SplitRun.local(exe, 2))
        println("split scenario: per instance ${split.perInstance}, merged ${split.merged}, ${split.result.statusCodes}; ${split.result.notes.first()}")
        assertThat(split.perInstance).hasSize(2).allSatisfy { assertThat(it).isPositive() }
        assertThat(split.merged).isEqualTo(split.perInstance.sum())
        val r = split.result
        assertThat(r.responses + r.errors.filterKeys { it != "status" }.values.sum()).isEqualTo(split.merged)
        assertThat(r.statusCodes.keys).containsExactly("200", "201")
        assertThat(r.statusCodes["200"]).isEqualTo(r.statusCodes["201"]) // each iteration: POST then GET
        assertThat(r.errors).isEmpty()
        assertThat(r.notes.first()).startsWith("split over 2 k6 instances (execution segments 0,1/2,1): ").contains(" ms of each other")
        for (i in 0..1) {
            assertThat(Files.readString(dir.resolve("instance-$i/command.txt")))
                .contains("--execution-segment ${ExecutionSegments(2).segment(i)} --execution-segment-sequence 0,1/2,1 --paused --address 127.0.0.1:")
        }
    }
}
