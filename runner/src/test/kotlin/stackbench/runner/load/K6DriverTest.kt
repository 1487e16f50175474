package stackbench.runner.load

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.within
import org.assertj.core.api.Assertions.withinPercentage
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import stackbench.runner.load.LoadFixtures.recorded
import stackbench.runner.load.LoadFixtures.request
import stackbench.runner.plan.LoadShape
import stackbench.runner.suite.LoadLength
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/** k6's command and its CSV read on recorded runs (src/test/resources/load/k6, see its README). */
class K6DriverTest {
    private val driver = K6Driver()
    private val k6 = Path.of("/opt/tools/k6")

    /** The recorded [case] read as its [K6Recording] request was: the same shape and length. */
    private fun parsed(case: String) = recorded("k6", case).let { dir ->
        val r = K6Recording.cases(dir.parent, "http://127.0.0.1:18080").getValue(case).copy(outputDir = dir)
        driver.parse(r, dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 9.0)
    }

    @Test
    fun `the command runs the script it wrote, samples as CSV on stdout, nothing else as input`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Closed(8), LoadLength.Timed(Duration.ofSeconds(30)))
        assertThat(driver.command(r, k6)).containsExactly(
            "/opt/tools/k6", "run", "--quiet", "--summary-mode=disabled", "--no-usage-report", "--no-color",
            "--system-tags", "status,error_code,expected_response,name",
            "--out", "csv=fileName=/dev/stdout,timeFormat=unix_milli", "$dir/script.js",
        )
        assertThat(Files.readString(dir.resolve("script.js"))).contains(
            """main: { executor: "constant-vus", vus: 8, duration: "30s", gracefulStop: "2s" },""",
            """{ method: "GET", url: "http://127.0.0.1:18080/noop", body: null, expected: 200, check: "GET /noop is 200", """ +
                """params: { tags: { name: "GET /noop" }, headers: {}, timeout: "2s", responseCallback: http.expectedStatuses(200) } },""",
            "  for (const r of REQUESTS) send(r);",
        ).doesNotContain("sleep(")
    }

    @Test
    fun `a counted closed run shares its iterations among its users`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Closed(8), LoadLength.Counted(1000), timeout = Duration.ofMillis(500))
        assertThat(K6Script.executor(r)).isEqualTo("""{ executor: "shared-iterations", vus: 8, iterations: 1000, maxDuration: "120s" }""")
    }

    @Test
    fun `the open model is a constant arrival rate with the connection cap as its users`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Open(250.0, 40), LoadLength.Timed(Duration.ofMillis(1500)))
        assertThat(K6Script.executor(r)).isEqualTo(
            """{ executor: "constant-arrival-rate", rate: 250, timeUnit: "1s", duration: "1500ms", preAllocatedVUs: 40, maxVUs: 40, gracefulStop: "2s" }""",
        )
    }

    @ParameterizedTest
    @CsvSource("200.0, 200, 1s", "12.5, 25, 2s", "0.333, 333, 1000s")
    fun `a fractional rate becomes whole iterations per time unit`(rate: Double, iterations: String, unit: String) {
        assertThat(K6Script.rate(rate)).isEqualTo(iterations to unit)
    }

    @Test
    fun `the open model cannot count requests`(@TempDir dir: Path) {
        assertThatThrownBy { K6Script.executor(request(dir, LoadShape.Open(10.0, 2), LoadLength.Counted(100))) }
            .hasMessage("k6's open model runs for a duration, not a request count")
    }

    @Test
    fun `a POST sends its JSON body and Basic auth, and expects its own status`(@TempDir dir: Path) {
        val r = request(dir, method = "POST", body = """{"title":"a \"quoted\" title"}""", basicAuth = "user" to "password", expectedStatus = 201)
        assertThat(K6Script.render(r)).contains(
            """{ method: "POST", url: "http://127.0.0.1:18080/noop", body: "{\"title\":\"a \\\"quoted\\\" title\"}", expected: 201, check: "POST /noop is 201", """ +
                """params: { tags: { name: "POST /noop" }, headers: {"Content-Type":"application/json","Authorization":"Basic dXNlcjpwYXNzd29yZA=="}, timeout: "2s", responseCallback: http.expectedStatuses(201) } },""",
        )
    }

    @Test
    fun `a value from the environment is read from __ENV as the script runs, percent-encoded in a URL`(@TempDir dir: Path) {
        val r = request(dir, url = java.net.URI("http://127.0.0.1:18080" + stackbench.runner.suite.Secrets.uriSafe("/q?key=${'$'}{env:SB_KEY}")))
            .copy(headers = mapOf("Authorization" to "Bearer ${'$'}{env:SB_TOKEN}"))
        val script = K6Script.render(r)
        assertThat(script).contains(
            "url: \"http://127.0.0.1:18080/q?key=\" + encodeURIComponent(__ENV[\"SB_KEY\"])",
            "\"Authorization\":\"Bearer \" + __ENV[\"SB_TOKEN\"]",
        )
        assertThat(script).doesNotContain("env:SB_TOKEN")
    }

    @Test
    fun `a closed run recorded for one second`() {
        val r = parsed("closed-timed")
        assertThat(r.driver).isEqualTo("k6")
        assertThat(r.model).isEqualTo("closed")
        assertThat(r.latencyCorrected).isFalse()
        assertThat(r.responses).isEqualTo(162)
        assertThat(r.successes).isEqualTo(162)
        assertThat(r.statusCodes).containsExactly(entry("200", 162))
        assertThat(r.errors).isEmpty()
        assertThat(r.dropped).isZero()
        assertThat(r.wallSeconds).isCloseTo(1.002, within(0.002))
        assertThat(r.throughput).isCloseTo(162 / r.wallSeconds, within(1e-9))
        // order statistics of the 162 durations in the CSV: median 11.8335 ms, max 22.590 ms, min 10.797 ms
        assertThat(r.latency.p50).isCloseTo(11.8335, withinPercentage(0.2))
        assertThat(r.latency.max).isCloseTo(22.590, withinPercentage(0.2))
        assertThat(r.latency.min).isCloseTo(10.797, withinPercentage(0.2))
        assertThat(r.spectrum.map { it.percentile }).containsExactly(50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0)
        assertThat(r.perSecond).hasSize(1)
        val excluded = Regex("(\\d+) answers that ended in the last partial second").find(r.notes.joinToString())!!.groupValues[1].toLong()
        assertThat(r.perSecond.single().responses + excluded).isEqualTo(162)
    }

    @Test
    fun `a counted run shorter than a second`() {
        val r = parsed("closed-counted")
        assertThat(r.responses).isEqualTo(100)
        assertThat(r.wallSeconds).isCloseTo(0.160, within(0.002))
        assertThat(r.perSecond.single().responses).isEqualTo(100)
    }

    @Test
    fun `answers without the expected status are status errors, latency covers them`() {
        val r = parsed("status")
        assertThat(r.responses).isEqualTo(298)
        assertThat(r.successes).isEqualTo(205)
        assertThat(r.statusCodes).containsExactly(entry("200", 205), entry("404", 59), entry("500", 34))
        assertThat(r.errors).containsExactly(entry("status", 93))
        assertThat(r.latency.p50).isCloseTo(6.2334, withinPercentage(0.2))
        assertThat(r.notes).contains("latency figures cover every answer, 93 without the expected status included")
    }

    @Test
    fun `k6's request timeouts are timeout errors, not answers`() {
        val r = parsed("timeout")
        assertThat(r.responses).isEqualTo(11)
        assertThat(r.errors).containsExactly(entry("timeout", 4))
        assertThat(r.errorRate).isCloseTo(4.0 / 15, within(1e-9))
    }

    @Test
    fun `refused connections are connect errors and no answer`() {
        val r = parsed("refused")
        assertThat(r.responses).isZero()
        assertThat(r.errors).containsExactly(entry("connect", 21))
        assertThat(r.latency.p50).isNull()
        assertThat(r.spectrum).isEmpty()
        assertThat(r.notes).contains("no answers: no latency figures")
    }

    @Test
    fun `an overloaded open model drops iterations and records them`() {
        val r = parsed("open-overload")
        assertThat(r.model).isEqualTo("open")
        assertThat(r.responses).isEqualTo(17)
        assertThat(r.dropped).isEqualTo(64)
        assertThat(r.errors).isEmpty()
        assertThat(r.notes).contains("64 iterations dropped: due while every user was busy, never sent (the generator's overload, k6's dropped_iterations)")
    }

    @Test
    fun `an open run at its rate drops nothing`() {
        val r = parsed("open")
        assertThat(r.responses).isEqualTo(101)
        assertThat(r.dropped).isZero()
        assertThat(r.perSecond.map { it.responses }.sum()).isLessThanOrEqualTo(101)
        assertThat(r.perSecond).hasSize(2)
    }

    @Test
    fun `a scenario's answers each meet their own expected status`() {
        val dir = recorded("k6", "scenario-users")
        val r = driver.parse(K6Recording.scenarioUsers(dir, "http://127.0.0.1:18080"), dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 9.0)
        assertThat(r.model).isEqualTo("scenario")
        assertThat(r.statusCodes).containsExactly(entry("200", 47), entry("201", 47))
        assertThat(r.successes).isEqualTo(94)
        assertThat(r.errors).isEmpty()
        assertThat(r.wallSeconds).isEqualTo(3.0) // its stages' 3 s: the requests spanned 2.505 s of it
    }

    @Test
    fun `a mix on an arrival ramp beyond its users drops iterations`() {
        val dir = recorded("k6", "scenario-mix")
        val r = driver.parse(K6Recording.scenarioMix(dir, "http://127.0.0.1:18080"), dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 9.0)
        assertThat(r.responses).isEqualTo(19)
        assertThat(r.statusCodes).containsExactly(entry("200", 18), entry("404", 1))
        assertThat(r.errors).containsExactly(entry("status", 1))
        assertThat(r.dropped).isEqualTo(10)
    }

    @Test
    fun `the recorded scenario scripts are what the generator writes today`() {
        for (case in listOf("scenario-users", "scenario-mix")) {
            val dir = recorded("k6", case)
            val req = if (case == "scenario-users") K6Recording.scenarioUsers(dir, "http://127.0.0.1:18080") else K6Recording.scenarioMix(dir, "http://127.0.0.1:18080")
            assertThat(K6Script.render(req)).isEqualTo(Files.readString(dir.resolve("script.js")))
        }
    }

    @Test
    fun `no samples on stdout is an error with k6's own words`(@TempDir dir: Path) {
        Files.writeString(dir.resolve("stdout.txt"), "")
        Files.writeString(dir.resolve("stderr.txt"), "level=error msg=\"could not initialize\"\n")
        assertThatThrownBy { driver.parse(request(dir), dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 1.0) }
            .hasMessageContaining("k6 wrote no samples on stdout").hasMessageContaining("could not initialize")
    }

    @ParameterizedTest
    @CsvSource("1050, timeout", "1211, timeout", "1212, connect", "1101, connect", "1310, connect", "1201, write", "1220, read", "1200, read", "1000, other", "1650, other")
    fun `k6 error codes map to the lab's kinds`(code: Int, kind: String) {
        assertThat(K6Samples.errorKind(code)).isEqualTo(kind)
    }

    private fun entry(k: String, v: Long) = org.assertj.core.api.Assertions.entry(k, v)
    private fun entry(k: String, v: Int) = org.assertj.core.api.Assertions.entry(k, v.toLong())
}
