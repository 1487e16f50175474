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
import stackbench.runner.results.LoadResult
import stackbench.runner.suite.LoadLength
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

class OhaDriverTest {
    private val driver = OhaDriver()
    private val oha = Path.of("/opt/tools/oha")
    private val url = URI.create("http://127.0.0.1:8080/cpu/direct?limit=1000")
    private val exact = within(1e-9)

    // ---- command lines ----

    private fun commandOf(dir: Path, r: DriveRequest): List<String> = driver.command(r, oha)

    private fun common(dir: Path, method: String, timeout: String, threads: Int) = listOf(
        "/opt/tools/oha", "--no-tui", "--output-format", "json",
        "-o", "$dir/oha.json", "--db-url", "$dir/requests.db",
        "-m", method, "-t", timeout, "--worker-threads", "$threads",
    )

    @Test
    fun `closed model for a duration`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Closed(64), LoadLength.Timed(Duration.ofSeconds(30)), timeout = Duration.ofSeconds(5), threads = 4, url = url)
        assertThat(commandOf(dir, r)).isEqualTo(common(dir, "GET", "5s", 4) + listOf("-c", "64", "-z", "30s", url.toString()))
    }

    @Test
    fun `closed model for a request count`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Closed(8), LoadLength.Counted(10_000), timeout = Duration.ofMillis(500), threads = 2, url = url)
        assertThat(commandOf(dir, r)).isEqualTo(common(dir, "GET", "500ms", 2) + listOf("-c", "8", "-n", "10000", url.toString()))
    }

    @Test
    fun `open model at a rate with latency correction`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Open(1500.0, 100), LoadLength.Timed(Duration.ofMillis(1500)), timeout = Duration.ofSeconds(2), threads = 3, url = url)
        assertThat(commandOf(dir, r)).isEqualTo(
            common(dir, "GET", "2s", 3) + listOf("-q", "1500", "--latency-correction", "-c", "100", "-z", "1500ms", url.toString()),
        )
    }

    @Test
    fun `open model with a fractional rate and a request count`(@TempDir dir: Path) {
        val r = request(dir, LoadShape.Open(12.5, 4), LoadLength.Counted(100), url = url)
        assertThat(commandOf(dir, r)).isEqualTo(
            common(dir, "GET", "2s", 1) + listOf("-q", "12.5", "--latency-correction", "-c", "4", "-n", "100", url.toString()),
        )
    }

    @Test
    fun `POST with a JSON body and basic auth`(@TempDir dir: Path) {
        val body = """{"id":11,"title":"Benchmark the stacks","description":null,"completed":false}"""
        val todo = URI.create("http://127.0.0.1:8080/todo")
        val r = request(dir, LoadShape.Closed(2), method = "POST", body = body, basicAuth = "user" to "pass:word", expectedStatus = 201, url = todo)
        assertThat(commandOf(dir, r)).isEqualTo(
            common(dir, "POST", "2s", 1) +
                listOf("-c", "2", "-z", "2s", "-d", body, "-T", "application/json", "-a", "user:pass:word", todo.toString()),
        )
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource("PT2S, 2s", "PT0.5S, 500ms", "PT1M, 60s", "PT0.0001S, 100us", "PT1.25S, 1250ms")
    fun `durations are written as humantime reads them`(d: String, expected: String) {
        assertThat(LoadSupport.humantime(Duration.parse(d))).isEqualTo(expected)
    }

    @Test
    fun `a stale summary and database are removed, since oha appends to an existing database`(@TempDir dir: Path) {
        Files.writeString(dir.resolve("oha.json"), "{}")
        Files.writeString(dir.resolve("requests.db"), "old")
        driver.command(request(dir), oha)
        assertThat(dir.resolve("oha.json")).doesNotExist()
        assertThat(dir.resolve("requests.db")).doesNotExist()
    }

    @Test
    fun `a zero rate is refused, since -q 0 means no limit to oha`(@TempDir dir: Path) {
        assertThatThrownBy { driver.command(request(dir, LoadShape.Open(0.0, 4)), oha) }
            .isInstanceOf(IllegalArgumentException::class.java).hasMessageContaining("rate above 0")
    }

    @Test
    fun `a basic auth user with a colon is refused`(@TempDir dir: Path) {
        assertThatThrownBy { driver.command(request(dir, basicAuth = "us:er" to "pw"), oha) }
            .isInstanceOf(IllegalArgumentException::class.java).hasMessageContaining("cannot contain ':'")
    }

    // ---- recorded outputs (oha 1.16.0 against a local server; see resources/load/README.md) ----

    private fun parse(case: String, r: (Path) -> DriveRequest = { request(it) }): LoadResult {
        val dir = recorded("oha", case)
        return driver.parse(r(dir), dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 99.0)
    }

    @Test
    fun `closed run, counts, latency in ms, stdev from the database, one series entry per whole second`() {
        val r = parse("closed-timed")
        assertThat(r.driver).isEqualTo("oha")
        assertThat(r.model).isEqualTo("closed")
        assertThat(r.latencyCorrected).isFalse()
        assertThat(r.wallSeconds).isCloseTo(2.001557612, exact)
        assertThat(r.responses).isEqualTo(750)
        assertThat(r.successes).isEqualTo(750)
        assertThat(r.throughput).isCloseTo(750 / 2.001557612, exact)
        assertThat(r.statusCodes).containsExactly(entry("200", 750))
        assertThat(r.errors).isEmpty()
        assertThat(r.inFlightAtEnd).isEqualTo(2) // "aborted due to deadline": one per busy connection
        with(r.latency) {
            assertThat(min).isCloseTo(5.128113, exact)
            assertThat(mean).isCloseTo(5.3211627773333305, exact)
            assertThat(stdev).isCloseTo(0.2470381358707634, within(1e-9))
            assertThat(p50).isCloseTo(5.291186, exact)
            assertThat(p90).isCloseTo(5.395041, exact)
            assertThat(p99).isCloseTo(5.702329, exact)
            assertThat(p999).isCloseTo(8.736608, exact)
            assertThat(p9999).isCloseTo(8.736608, exact)
            assertThat(max).isCloseTo(8.736608, exact)
        }
        assertThat(r.spectrum.map { it.percentile }).containsExactly(50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0)
        assertThat(r.spectrum[1].ms).isCloseTo(5.337725, exact)
        assertThat(r.perSecond.map { Triple(it.second, it.responses, it.successes) })
            .containsExactly(Triple(0, 372L, 372L), Triple(1, 378L, 378L))
        // HdrHistogram, 3 significant digits: within 0.1 % of the exact order statistics
        assertThat(r.perSecond[0].p50).isCloseTo(5.3006, withinPercentage(0.1))
        assertThat(r.perSecond[0].p99).isCloseTo(6.7866, withinPercentage(0.1))
        assertThat(r.perSecond[1].p50).isCloseTo(5.2747, withinPercentage(0.1))
        assertThat(r.perSecond[1].p99).isCloseTo(5.5781, withinPercentage(0.1))
        assertThat(r.notes).isEmpty()
    }

    @Test
    fun `non-2xx answers are answers but not successes, and count as status errors`() {
        val r = parse("status")
        assertThat(r.statusCodes).containsExactly(entry("200", 497), entry("404", 145), entry("500", 82))
        assertThat(r.responses).isEqualTo(724)
        assertThat(r.successes).isEqualTo(497)
        assertThat(r.errors).containsExactly(entry("status", 227))
        assertThat(r.throughput).isCloseTo(497 / 2.001014226, exact)
        assertThat(r.inFlightAtEnd).isEqualTo(2)
        assertThat(r.perSecond.map { Triple(it.second, it.responses, it.successes) })
            .containsExactly(Triple(0, 364L, 250L), Triple(1, 358L, 246L))
        assertThat(r.notes).anyMatch { "2 answers that ended in the last partial second" in it }
        assertThat(r.notes).anyMatch { "latency figures cover every answer, 227 without the expected status 200" in it }
    }

    @Test
    fun `timeouts are errors, and the requests cut off by the deadline are in flight`() {
        val r = parse("timeout") { request(it, LoadShape.Closed(4), timeout = Duration.ofSeconds(1)) }
        assertThat(r.responses).isEqualTo(24)
        assertThat(r.successes).isEqualTo(24)
        assertThat(r.errors).containsExactly(entry("timeout", 4))
        assertThat(r.inFlightAtEnd).isEqualTo(4)
        assertThat(r.latency.max).isCloseTo(22.116794, exact) // the timed-out ones are not in the latency
        assertThat(r.errorCount).isEqualTo(4)
    }

    @Test
    fun `a slow endpoint leaves one request in flight per connection when the window closes`() {
        val r = parse("deadline") { request(it, LoadShape.Closed(5), timeout = Duration.ofSeconds(3)) }
        assertThat(r.responses).isEqualTo(10)
        assertThat(r.inFlightAtEnd).isEqualTo(5)
        assertThat(r.errors).isEmpty()
        assertThat(r.latency.p50).isCloseTo(700.963731, exact)
        assertThat(r.perSecond.map { it.responses }).containsExactly(5L, 5L)
    }

    @Test
    fun `a window in which every request outlasted the deadline has no answer, and its aborts are reported by kind`() {
        val r = parse("no-answer") { request(it, LoadShape.Closed(5), LoadLength.Timed(Duration.ofSeconds(1)), timeout = Duration.ofSeconds(5)) }
        assertThat(r.responses).isZero()
        assertThat(r.successes).isZero()
        assertThat(r.throughput).isZero()
        assertThat(r.errors).isEmpty()
        assertThat(r.inFlightAtEnd).isEqualTo(5)
        assertThat(r.aborted).containsExactly(entry("deadline", 5))
    }

    @Test
    fun `connection refused, connect errors, no answers, no latency`() {
        val r = parse("refused") { request(it, LoadShape.Closed(2), LoadLength.Timed(Duration.ofSeconds(1)), timeout = Duration.ofSeconds(1)) }
        assertThat(r.responses).isZero()
        assertThat(r.successes).isZero()
        assertThat(r.throughput).isZero()
        assertThat(r.errors).containsExactly(entry("connect", 53872))
        assertThat(r.inFlightAtEnd).isEqualTo(2) // connect attempts cut off by the deadline
        assertThat(r.errorRate).isEqualTo(1.0)
        with(r.latency) { assertThat(listOf(min, mean, stdev, p50, p90, p99, p999, p9999, max)).containsOnlyNulls() }
        assertThat(r.spectrum).isEmpty()
        assertThat(r.perSecond).isEmpty()
        assertThat(r.notes).contains("no answers: no latency figures")
    }

    @Test
    fun `open model, corrected latency, in flight estimated from the intended sends`() {
        val r = parse("open") { request(it, LoadShape.Open(200.0, 10)) }
        assertThat(r.model).isEqualTo("open")
        assertThat(r.latencyCorrected).isTrue()
        assertThat(r.responses).isEqualTo(399)
        // 2 s × 200/s = 400 intended sends, 399 answered
        assertThat(r.inFlightAtEnd).isEqualTo(1)
        assertThat(r.latency.p50).isCloseTo(2.294178, exact)
        assertThat(r.latency.p99).isCloseTo(150.374393, exact)
        assertThat(r.perSecond.map { it.responses }).containsExactly(199L, 200L)
        assertThat(r.perSecond[0].p99).isCloseTo(150.3805, withinPercentage(0.1))
        assertThat(r.notes).anyMatch { it.startsWith("open model: 1 of about 400 intended sends") && "counted 1 \"aborted due to deadline\"" in it }
    }

    @Test
    fun `open model beyond capacity, the queue shows as requests in flight, latency counts the wait`() {
        val r = parse("open-overload") { request(it, LoadShape.Open(100.0, 2), timeout = Duration.ofSeconds(5)) }
        assertThat(r.responses).isEqualTo(78)
        assertThat(r.inFlightAtEnd).isEqualTo(200 - 78)
        assertThat(r.latency.min).isCloseTo(50.760147, exact)
        assertThat(r.latency.p50).isCloseTo(634.390551, exact)
        assertThat(r.latency.max).isCloseTo(1219.637172, exact)
        assertThat(r.perSecond[0].p50).isCloseTo(324.9788, withinPercentage(0.1))
        assertThat(r.perSecond[1].p50).isCloseTo(909.2530, withinPercentage(0.1))
    }

    @Test
    fun `POST with basic auth, 201 is the expected status`() {
        val r = parse("post-auth") { request(it, method = "POST", expectedStatus = 201) }
        assertThat(r.statusCodes).containsExactly(entry("201", 1161))
        assertThat(r.successes).isEqualTo(1161)
        assertThat(r.errors).isEmpty()
        assertThat(r.throughput).isCloseTo(1161 / 2.001583434, exact)
        assertThat(r.latency.p9999).isCloseTo(8.507095, exact)
        assertThat(r.perSecond.sumOf { it.successes }).isEqualTo(1161)
    }

    @Test
    fun `the same recording with 200 expected counts every 201 as a status error`() {
        val r = parse("post-auth") { request(it, method = "POST", expectedStatus = 200) }
        assertThat(r.successes).isZero()
        assertThat(r.errors).containsExactly(entry("status", 1161))
        assertThat(r.perSecond.sumOf { it.successes }).isZero()
    }

    @Test
    fun `a counted run shorter than a second gives one partial second`() {
        val r = parse("closed-counted") { request(it, LoadShape.Closed(2), LoadLength.Counted(300)) }
        assertThat(r.wallSeconds).isCloseTo(0.337383875, exact)
        assertThat(r.responses).isEqualTo(300)
        assertThat(r.inFlightAtEnd).isZero()
        assertThat(r.perSecond).hasSize(1)
        assertThat(r.perSecond[0].responses).isEqualTo(300)
        assertThat(r.perSecond[0].p50).isCloseTo(2.2200, withinPercentage(0.1))
        assertThat(r.notes).containsExactly("the window lasted 0.337 s: its one second in the series is partial")
    }

    @Test
    fun `closed-model percentiles are raw order statistics (compare wrk's jitter recording)`() {
        // every 10th request takes 200 ms, the others 5 ms: p75 stays at 5.5 ms
        val r = parse("jitter") { request(it, LoadShape.Closed(2), LoadLength.Timed(Duration.ofSeconds(3))) }
        assertThat(r.latency.p50).isCloseTo(5.436223, exact)
        assertThat(r.spectrum.single { it.percentile == 75.0 }.ms).isCloseTo(5.501119, exact)
        assertThat(r.latency.p90).isCloseTo(33.400512, exact)
    }

    @Test
    fun `without a summary the parse fails with what oha printed`(@TempDir dir: Path) {
        Files.writeString(dir.resolve("stderr.txt"), "error: unexpected argument '--bogus' found\n")
        assertThatThrownBy { driver.parse(request(dir), dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 1.0) }
            .isInstanceOf(IllegalStateException::class.java)
            .hasMessageContaining("oha wrote no summary")
            .hasMessageContaining("unexpected argument '--bogus'")
    }

    @ParameterizedTest(name = "\"{0}\" → {1}")
    @CsvSource(
        delimiter = '|',
        textBlock = """
        timeout                                       | timeout
        Connection refused (os error 111)             | connect
        Cannot assign requested address (os error 99) | connect
        Too many open files (os error 24)             | connect
        No record returned from DNS                   | connect
        connection closed before message completed    | read
        Connection reset by peer (os error 104)       | read
        error reading a body from connection          | read
        connection error                              | read
        error writing a body to connection            | write
        Broken pipe (os error 32)                     | write
        Redirection limit has reached                 | other""",
    )
    fun `oha's error messages map to error kinds`(message: String, kind: String) {
        assertThat(OhaDriver.errorKind(message)).isEqualTo(kind)
    }

    private fun entry(k: String, v: Long) = org.assertj.core.api.Assertions.entry(k, v)
}
