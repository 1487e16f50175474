package stackbench.runner.load

import stackbench.runner.plan.EndpointCall
import stackbench.runner.plan.EndpointKind
import stackbench.runner.plan.LoadShape
import stackbench.runner.suite.LoadLength
import stackbench.runner.suite.Scenario
import stackbench.runner.suite.ScenarioProfile
import stackbench.runner.suite.ScenarioStep
import stackbench.runner.suite.Stage
import stackbench.runner.suite.Think
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/**
 * Records the k6 cases under `src/test/resources/load/k6` (see its README): each case's script written by
 * [K6Driver.command] and run by [DriverProcess] as the lab runs it, against RecServer. Run by hand:
 * `java -cp <runner classpath> stackbench.runner.load.K6Recording <out> <k6> <RecServer base URL>`.
 */
object K6Recording {
    private const val BODY = """{"id":11,"title":"Benchmark the stacks","description":null,"completed":false}"""

    /** The cases: name to request (its output folder under the recording's). */
    fun cases(out: Path, base: String): Map<String, DriveRequest> {
        fun r(case: String, path: String, shape: LoadShape, length: LoadLength, timeout: Duration = Duration.ofSeconds(2), calls: List<HttpCall> = emptyList()) =
            DriveRequest(URI.create(base + path), "GET", null, null, shape, length, timeout, 1, out.resolve(case), scenarioCalls = calls)
        val sec = { s: Long -> LoadLength.Timed(Duration.ofSeconds(s)) }
        return linkedMapOf(
            "closed-timed" to r("closed-timed", "/delay?ms=10", LoadShape.Closed(2), sec(1)),
            "closed-counted" to r("closed-counted", "/delay?ms=2", LoadShape.Closed(2), LoadLength.Counted(100)),
            "open" to r("open", "/jitter?every=10&slow=100&fast=2", LoadShape.Open(50.0, 5), sec(2)),
            "open-overload" to r("open-overload", "/delay?ms=100", LoadShape.Open(40.0, 1), sec(2)),
            "status" to r("status", "/flaky?ms=5", LoadShape.Closed(2), sec(1)),
            "timeout" to r("timeout", "/jitter?every=4&slow=1500&fast=20", LoadShape.Closed(2), sec(2), timeout = Duration.ofSeconds(1)),
            "refused" to r("refused", "", LoadShape.Open(20.0, 2), sec(1)).copy(url = URI.create("http://127.0.0.1:18099/noop")),
            "scenario-users" to scenarioUsers(out.resolve("scenario-users"), base),
            "scenario-mix" to scenarioMix(out.resolve("scenario-mix"), base),
        )
    }

    fun scenarioUsers(dir: Path, base: String): DriveRequest {
        val scenario = Scenario("todo", ScenarioProfile.Users(listOf(Stage(Duration.ofSeconds(2), 4), Stage(Duration.ofSeconds(1), 4))),
            listOf(ScenarioStep("POST", "/todo", 1, 1, 1), ScenarioStep("GET", "/todo", 1, 1, 1)), mixed = false,
            think = Think(Duration.ofMillis(100), Duration.ofMillis(200)))
        val shape = LoadShape.Scenario(scenario, listOf(EndpointCall(EndpointKind.TODO, null, emptyList(), "POST"), EndpointCall(EndpointKind.TODO, null, emptyList(), "GET")))
        val calls = listOf(
            HttpCall(URI.create("$base/todo?ms=3"), "POST", BODY, "user" to "password", 201),
            HttpCall(URI.create("$base/delay?ms=2"), "GET", null, "user" to "password", 200),
        )
        return DriveRequest(calls[0].url, "POST", BODY, "user" to "password", shape, LoadLength.Timed(scenario.duration), Duration.ofSeconds(2), 1, dir,
            expectedStatus = 201, scenarioCalls = calls)
    }

    fun scenarioMix(dir: Path, base: String): DriveRequest {
        val scenario = Scenario("mix", ScenarioProfile.Arrivals(listOf(Stage(Duration.ofSeconds(2), 30)), maxUsers = 2),
            listOf(ScenarioStep("GET", "/delay", 3, 1, 1), ScenarioStep("GET", "/flaky", 1, 1, 1)), mixed = true, think = null)
        val shape = LoadShape.Scenario(scenario, listOf(EndpointCall(EndpointKind.NOOP, null, emptyList()), EndpointCall(EndpointKind.NOOP, null, emptyList())))
        val calls = listOf(HttpCall(URI.create("$base/delay?ms=150"), "GET", null, null, 200), HttpCall(URI.create("$base/flaky?ms=5"), "GET", null, null, 200))
        return DriveRequest(calls[0].url, "GET", null, null, shape, LoadLength.Timed(scenario.duration), Duration.ofSeconds(2), 1, dir, scenarioCalls = calls)
    }

    @JvmStatic
    fun main(args: Array<String>) {
        val (out, k6, base) = Triple(Path.of(args[0]), Path.of(args[1]), args[2])
        val only = args.drop(3).toSet()
        for ((name, request) in cases(out, base)) {
            if (only.isNotEmpty() && name !in only) continue
            val command = K6Driver().command(request, k6)
            Files.writeString(request.outputDir.resolve("command.txt"), command.joinToString(" ") + "\n")
            val run = DriverProcess().run(command, request.outputDir, deadline = DriverProcess.deadline(request))
            println("$name: exit ${run.exitCode}, ${"%.2f".format(run.wallSeconds)} s, ${Files.size(run.stdout)} bytes of CSV")
        }
    }
}
