package stackbench.runner.load

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.entry
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import stackbench.runner.load.LoadFixtures.recorded
import stackbench.runner.load.LoadFixtures.request
import stackbench.runner.plan.LoadShape
import stackbench.runner.results.LoadResult
import stackbench.runner.results.PercentilePoint
import stackbench.runner.results.SecondStat
import stackbench.runner.suite.LoadLength
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

class WrkDriverTest {
    private val driver = WrkDriver()
    private val wrk = Path.of("/usr/bin/wrk")
    private val url = URI.create("http://127.0.0.1:8080/io/blocking?delay=20")
    private val exact = within(1e-9)

    // ---- command lines ----

    @Test
    fun `closed model for a duration`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Closed(64), LoadLength.Timed(Duration.ofSeconds(30)), timeout = Duration.ofSeconds(5), threads = 4, url = url)
        assertThat(driver.command(r, wrk)).containsExactly(
            "/usr/bin/wrk", "-t", "4", "-c", "64", "-d", "30s", "--latency", "--timeout", "5s", "-s", "$dir/stackbench.lua", url.toString(),
        )
        assertThat(dir.resolve("stackbench.lua")).exists()
    }

    @ParameterizedTest(name = "{0} connections, {1} threads asked → -t {2}")
    @CsvSource("64, 4, 4", "10, 4, 2", "2, 8, 2", "7, 4, 1", "12, 5, 4", "1, 1, 1")
    fun `the thread count divides the connections, so wrk drops none`(connections: Int, threads: Int, expected: Int, @TempDir dir: Path) {
        val command = driver.command(request(dir, LoadShape.Closed(connections), threads = threads), wrk)
        assertThat(command.subList(1, 5)).containsExactly("-t", "$expected", "-c", "$connections")
    }

    @Test
    fun `durations and timeouts are rounded up to whole seconds`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Closed(2), LoadLength.Timed(Duration.ofMillis(1500)), timeout = Duration.ofMillis(500))
        val command = driver.command(r, wrk)
        assertThat(command.subList(5, 10)).containsExactly("-d", "2s", "--latency", "--timeout", "1s")
    }

    @Test
    fun `a request count is refused, wrk only runs for a duration`(@TempDir dir: Path) {
        assertThatThrownBy { driver.command(request(dir, length = LoadLength.Counted(10_000)), wrk) }
            .isInstanceOf(IllegalArgumentException::class.java)
            .hasMessage("wrk runs for a duration only (-d); it cannot send a fixed number of requests (10000 asked): use oha for a counted run")
    }

    @Test
    fun `an open model is refused, wrk has no rate`(@TempDir dir: Path) {
        assertThatThrownBy { driver.command(request(dir, LoadShape.Open(500.0, 16)), wrk) }
            .isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageContaining("wrk drives a closed model only").hasMessageContaining("500.0 req/s needs oha")
    }

    @Test
    fun `the script carries method, JSON body, basic auth, the output path and the expected status`(@TempDir dir: Path) {
        val body = """{"id":11,"title":"Benchmark the stacks","description":null,"completed":false}"""
        val r = request(dir, method = "POST", body = body, basicAuth = "user" to "password", expectedStatus = 201)
        driver.command(r, wrk)
        val script = Files.readString(dir.resolve("stackbench.lua"))
        assertThat(script.lines()).contains(
            "sb = { output = \"$dir/wrk.json\", method = \"POST\", " +
                """body = "{\"id\":11,\"title\":\"Benchmark the stacks\",\"description\":null,\"completed\":false}", """ +
                """headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Basic dXNlcjpwYXNzd29yZA==" }, """ +
                "per_second = true, expected = 201 }",
        )
        assertThat(script.lines()).noneMatch { it.startsWith("-- @@CONFIG@@") }
    }

    @Test
    fun `a value from the environment is read by the script as it runs, never written into it`(@TempDir dir: Path) {
        val r = request(dir, method = "POST", body = "{\"key\":\"${'$'}{env:SB_KEY}\"}").copy(headers = mapOf("Authorization" to "Bearer ${'$'}{env:SB_TOKEN}"))
        driver.command(r, wrk)
        val script = Files.readString(dir.resolve("stackbench.lua"))
        assertThat(script).contains(
            "body = \"{\\\"key\\\":\\\"\" .. os.getenv(\"SB_KEY\") .. \"\\\"}\"",
            "[\"Authorization\"] = \"Bearer \" .. os.getenv(\"SB_TOKEN\")",
        )
        assertThat(script).doesNotContain("env:")
    }

    @Test
    fun `a GET without the per-second hook`(@TempDir dir: Path) {
        WrkDriver(perSecond = false).command(request(dir), wrk)
        assertThat(Files.readAllLines(dir.resolve("stackbench.lua")))
            .contains("sb = { output = \"$dir/wrk.json\", method = \"GET\", body = nil, headers = {  }, per_second = false, expected = 200 }")
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        quoteCharacter = '\'',
        textBlock = """
        plain            | '"plain"'
        a "quoted" \ one | '"a \"quoted\" \\ one"'
        Zürich           | '"Z\195\188rich"'""",
    )
    fun `Lua string literals escape quotes, backslashes and non-ASCII bytes`(text: String, literal: String) {
        assertThat(WrkDriver.lua(text)).isEqualTo(literal)
    }

    @Test
    fun `control characters become decimal escapes`() {
        assertThat(WrkDriver.lua("a\nb\tc")).isEqualTo("\"a\\010b\\009c\"")
    }

    // ---- recorded outputs (wrk 4.1.0 with stackbench-wrk.lua against a local server; see resources/load/README.md) ----

    private fun parse(case: String, perSecond: Boolean = true, r: (Path) -> DriveRequest = { request(it) }): LoadResult {
        val dir = recorded("wrk", case)
        return WrkDriver(perSecond).parse(r(dir), dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 99.0)
    }

    @Test
    fun `closed run, counts, latency in ms, counts per second without latency`() {
        val r = parse("closed")
        assertThat(r.driver).isEqualTo("wrk")
        assertThat(r.model).isEqualTo("closed")
        assertThat(r.latencyCorrected).isFalse()
        assertThat(r.wallSeconds).isCloseTo(2.003982, exact)
        assertThat(r.responses).isEqualTo(752)
        assertThat(r.successes).isEqualTo(752)
        assertThat(r.throughput).isCloseTo(752 / 2.003982, exact)
        assertThat(r.statusCodes).containsExactly(entry("200", 752L))
        assertThat(r.errors).isEmpty()
        assertThat(r.inFlightAtEnd).isZero()
        with(r.latency) {
            assertThat(min).isCloseTo(5.149, exact)
            assertThat(mean).isCloseTo(5.313928, exact)
            assertThat(stdev).isCloseTo(0.132298, exact)
            assertThat(p50).isCloseTo(5.291, exact)
            assertThat(p90).isCloseTo(5.417, exact)
            assertThat(p99).isCloseTo(6.029, exact)
            assertThat(p999).isCloseTo(6.453, exact)
            assertThat(p9999).isCloseTo(6.453, exact)
            assertThat(max).isCloseTo(6.453, exact)
        }
        assertThat(r.spectrum.map { it.percentile }).containsExactly(50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99, 99.999, 100.0)
        assertThat(r.spectrum[3]).isEqualTo(PercentilePoint(95.0, 5.453))
        assertThat(r.perSecond).containsExactly(SecondStat(0, 376, 376), SecondStat(1, 374, 374))
        assertThat(r.notes).contains(
            "perSecond covers the 2 whole seconds of a 2.004 s window; 2 answers that ended in the last partial second are not in it",
            "wrk gives no per-second latency: perSecond has counts only",
            "wrk does not report requests in flight when the window closed (up to one per connection)",
        )
    }

    @Test
    fun `non-2xx answers, the hook's status counts give the successes`() {
        val r = parse("status") { request(it, LoadShape.Closed(4), threads = 2) }
        assertThat(r.responses).isEqualTo(1456)
        assertThat(r.statusCodes).containsExactly(entry("200", 999L), entry("404", 291L), entry("500", 166L))
        assertThat(r.successes).isEqualTo(999)
        assertThat(r.errors).containsExactly(entry("status", 457L)) // = wrk's own errors.status (> 399)
        assertThat(r.perSecond).containsExactly(SecondStat(0, 729, 500), SecondStat(1, 725, 498))
    }

    @Test
    fun `late answers are wrk's timeouts, answers, but not successes, and not in the latency`() {
        val r = parse("timeout") { request(it, LoadShape.Closed(4), LoadLength.Timed(Duration.ofSeconds(3)), timeout = Duration.ofSeconds(1), threads = 2) }
        assertThat(r.responses).isEqualTo(26)
        assertThat(r.statusCodes).containsExactly(entry("200", 26L))
        assertThat(r.successes).isEqualTo(22)
        assertThat(r.errors).containsExactly(entry("timeout", 4L))
        assertThat(r.latency.max).isCloseTo(21.949, exact)
        assertThat(r.perSecond).containsExactly(SecondStat(0, 10, 10), SecondStat(1, 16, 16), SecondStat(2, 0, 0))
        assertThat(r.notes).anyMatch { it.startsWith("4 answers arrived after the timeout") }
    }

    @Test
    fun `a server that dies mid-run, wrk counts the refused reconnects as write errors`() {
        val r = parse("connect-errors")
        assertThat(r.responses).isEqualTo(338)
        assertThat(r.successes).isEqualTo(338)
        assertThat(r.errors).containsExactly(entry("read", 4L), entry("write", 40121L))
        assertThat(r.perSecond).containsExactly(SecondStat(0, 338, 338), SecondStat(1, 0, 0))
    }

    @Test
    fun `POST with basic auth, 201 is the expected status`() {
        val r = parse("post-auth") { request(it, method = "POST", expectedStatus = 201) }
        assertThat(r.statusCodes).containsExactly(entry("201", 1222L))
        assertThat(r.successes).isEqualTo(1222)
        assertThat(r.errors).isEmpty()
        assertThat(r.throughput).isCloseTo(1222 / 2.011067, exact)
        assertThat(r.perSecond.map { it.successes }).containsExactly(609L, 607L)
    }

    @Test
    fun `without the hook, successes from wrk's counters, no series, no status breakdown`() {
        val r = parse("no-hook", perSecond = false)
        assertThat(r.responses).isEqualTo(746)
        assertThat(r.successes).isEqualTo(746)
        assertThat(r.statusCodes).isEmpty()
        assertThat(r.perSecond).isEmpty()
        assertThat(r.latency.p99).isCloseTo(6.524, exact)
        assertThat(r.notes).anyMatch { it.startsWith("no per-second series and no status breakdown") }
    }

    @Test
    fun `wrk's latency carries its own coordinated-omission compensation (compare oha's jitter recording)`() {
        // every 10th request takes 200 ms, the others 5 ms: raw p75 is 5.5 ms (oha), wrk reports 102.7 ms
        val r = parse("jitter") { request(it, length = LoadLength.Timed(Duration.ofSeconds(3))) }
        assertThat(r.responses).isEqualTo(247)
        assertThat(r.latency.p50).isCloseTo(5.443, exact)
        assertThat(r.spectrum).contains(PercentilePoint(75.0, 102.674))
        assertThat(r.latency.p90).isCloseTo(175.784, exact)
        assertThat(r.latency.mean).isCloseTo(54.725748, exact)
    }

    @Test
    fun `rounding and thread changes are noted`() {
        val r = parse("closed") { request(it, LoadShape.Closed(10), LoadLength.Timed(Duration.ofMillis(1500)), timeout = Duration.ofMillis(500), threads = 4) }
        assertThat(r.notes).contains(
            "wrk ran 2 threads, not 4: each thread gets connections / threads connections, and 2 is the most that divides 10",
            "wrk takes whole seconds: -d 2s for PT1.5S",
            "wrk takes whole seconds: --timeout 1s for PT0.5S",
        )
    }

    @Test
    fun `without a summary the parse fails with what wrk printed`(@TempDir dir: Path) {
        Files.writeString(dir.resolve("stderr.txt"), "unable to connect to 127.0.0.1:1 Connection refused\n")
        assertThatThrownBy { driver.parse(request(dir), dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 1.0) }
            .isInstanceOf(IllegalStateException::class.java)
            .hasMessageContaining("wrk wrote no summary")
            .hasMessageContaining("unable to connect")
    }
}
