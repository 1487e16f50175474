package stackbench.runner.load

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.entry
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.plan.LoadShape
import stackbench.runner.suite.BodyCheck
import stackbench.runner.suite.Feed
import stackbench.runner.suite.Pick
import stackbench.runner.suite.RequestTemplate
import stackbench.runner.suite.Traffic
import java.io.BufferedReader
import java.io.StringReader
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import kotlin.math.exp
import kotlin.math.ln

/** Fed and mixed requests in each driver: the wrk Lua settings and the k6 script, and the per-name figures read back. */
class TrafficDriversTest {
    private val ids = Feed("ids", Pick.RANDOM, listOf("id"), (1..5).map { listOf(it.toString()) }, "order-ids.csv")
    private val qty = Feed("qty", Pick.PER_USER, listOf("value"), listOf(listOf("1"), listOf("2")), "1..2")
    private val read = RequestTemplate("read", "GET", "/orders/{ids.id}", mapOf("Authorization" to "Bearer \${env:TOKEN}"), null, 200, BodyCheck.JsonAt("/id", "{ids.id}"), 70)
    private val write = RequestTemplate("write", "POST", "/orders", emptyMap(), "{\"item\": \"pen\", \"quantity\": {qty}}", 201, null, 30)
    private val mix = Traffic(listOf(read, write), listOf(ids, qty), mixed = true)

    private fun request(dir: Path, traffic: Traffic = mix, connections: Int = 4) =
        LoadFixtures.request(dir, shape = LoadShape.Closed(connections), threads = 2, url = URI.create("http://127.0.0.1:18080/")).copy(traffic = traffic)

    @Test
    fun `wrk's settings hold each request's parts, the feeds' rows, and no secret's value`(@TempDir dir: Path) {
        val script = WrkDriver().script(request(dir))
        val config = script.lines().single { it.startsWith("sb = {") }
        assertThat(config).contains(
            "traffic = { mixed = true, threads = 4, duration_us = 2000000, timeout_us = 2000000",
            "{ pick = \"random\", rows = { {\"1\"}, {\"2\"}, {\"3\"}, {\"4\"}, {\"5\"} } }",
            "name = \"read\", method = \"GET\", weight = 70, expected = 200, path = { \"/orders/\", {1, 1} }, body = nil",
            "{ \"Authorization\", { \"Bearer \" .. os.getenv(\"TOKEN\") } }",
            "name = \"write\", method = \"POST\", weight = 30, expected = 201, path = { \"/orders\" }",
            "body = { \"{\\\"item\\\": \\\"pen\\\", \\\"quantity\\\": \", {2, 1}, \"}\" }",
            "{ \"Content-Type\", { \"application/json\" } }",
        )
        assertThat(script).doesNotContain("\${env:")
    }

    @Test
    fun `a wrk mix runs one thread a connection, a fed request the lab's threads`(@TempDir dir: Path) {
        val mixed = WrkDriver().command(request(dir, connections = 8), Path.of("/usr/bin/wrk"))
        assertThat(mixed.subList(1, 5)).containsExactly("-t", "8", "-c", "8")
        val fed = WrkDriver().command(request(dir, Traffic(listOf(read.copy(weight = 1)), listOf(ids), mixed = false), 8), Path.of("/usr/bin/wrk"))
        assertThat(fed.subList(1, 5)).containsExactly("-t", "2", "-c", "8")
        assertThat(fed.last()).isEqualTo("http://127.0.0.1:18080/")
    }

    @Test
    fun `wrk's per-name dumps are summed over threads, latency from the 2 percent buckets`() {
        fun b(us: Double) = kotlin.math.floor(ln(us) * WrkTraffic.BUCKETS).toInt()
        // thread 1: read 3 answers (2 ok at 1 ms, 1 late), write 1 at 5 ms; thread 2: read 1 answer 404 at 2 ms
        val dumps = listOf(
            "1 3 2 1 1000 1000 2000 200:3 ${b(1000.0)}:2\n2 1 1 0 5000 5000 5000 201:1 ${b(5000.0)}:1",
            "1 1 0 0 2000 2000 2000 404:1 ${b(2000.0)}:1",
        )
        val named = WrkTraffic.named(mix, dumps, 2.0)
        assertThat(named.map { it.name }).containsExactly("read", "write")
        val r = named[0]
        assertThat(r.request).isEqualTo("GET /orders/{ids.id}")
        assertThat(r.responses).isEqualTo(4)
        assertThat(r.successes).isEqualTo(2)
        assertThat(r.throughput).isEqualTo(1.0)
        assertThat(r.statusCodes).containsExactly(entry("200", 3L), entry("404", 1L))
        assertThat(r.errors).containsExactly(entry("status", 1L), entry("timeout", 1L))
        assertThat(r.latency.min).isEqualTo(1.0)
        assertThat(r.latency.max).isEqualTo(2.0)
        assertThat(r.latency.p50!!).isCloseTo(1.0, within(0.02))
        assertThat(r.latency.p99!!).isCloseTo(2.0, within(0.04))
        assertThat(named[1].latency.p50!!).isCloseTo(5.0, within(0.1))
        assertThat(named[1].successes).isEqualTo(1)
    }

    @Test
    fun `a bucket's percentile is its middle`() {
        val buckets = mapOf(100 to 1L, 200 to 1L)
        assertThat(WrkTraffic.percentile(buckets, 2, 50.0)).isCloseTo(exp(100.5 / 50) / 1000, within(1e-9))
        assertThat(WrkTraffic.percentile(buckets, 2, 99.0)).isCloseTo(exp(200.5 / 50) / 1000, within(1e-9))
    }

    @Test
    fun `wrk reads the named figures of a mix from its summary`(@TempDir dir: Path) {
        Files.writeString(dir.resolve(WrkDriver.JSON_FILE), """
            {"tool": "wrk", "durationUs": 2000000, "requests": 2, "bytes": 10,
             "errors": {"connect": 0, "read": 0, "write": 0, "status": 0, "timeout": 0},
             "latencyUs": {"min": 900, "mean": 1000, "stdev": 10, "max": 1100, "percentiles": {"50": 1000, "99": 1100}},
             "spectrumUs": [], "threadRate": {"mean": 1, "stdev": 0, "max": 1}, "threads": 1, "expectedStatus": 200,
             "statusCodes": {"200": 1, "201": 1}, "perSecond": [[0, 2, 2]],
             "named": ["1 1 1 0 900 900 900 200:1 340\n2 1 1 0 1100 1100 1100 201:1 350"], "doneAfterStartUs": 2100000}
        """.trimIndent())
        val result = WrkDriver().parse(request(dir), dir.resolve("out"), dir.resolve("err"), 2.0)
        assertThat(result.successes).isEqualTo(2) // the write's 201 is its success, not a status error
        assertThat(result.errors).isEmpty()
        assertThat(result.requests.map { it.name to it.successes }).containsExactly("read" to 1L, "write" to 1L)
        assertThat(result.notes).anyMatch { "not corrected for coordinated omission" in it }
    }

    @Test
    fun `k6's script draws per request, picks by weight, and tags each request with its name`(@TempDir dir: Path) {
        val script = K6Script.render(request(dir))
        assertThat(script).contains(
            "import exec from 'k6/execution';",
            "const BASE = \"http://127.0.0.1:18080\";",
            "{ name: \"ids\", pick: \"random\", rows: [[\"1\"],[\"2\"],[\"3\"],[\"4\"],[\"5\"]] },",
            "path: [\"/orders/\", [0, 0]]",
            "[\"Authorization\", [\"Bearer \" + __ENV[\"TOKEN\"]]]",
            "params: { tags: { name: \"read\" }",
            "responseCallback: http.expectedStatuses(201)",
            "const TOTAL = 100;",
            "case \"per-user\": return (exec.vu.idInTest - 1) % n;",
            "default: return exec.scenario.iterationInTest % n;",
            "constant-vus",
        )
        assertThat(script).doesNotContain("\${env:")
    }

    @Test
    fun `k6's samples are read apart by their name tag, and merged by name`() {
        fun csv(vararg rows: String) = K6Samples.read(BufferedReader(StringReader(
            (listOf("metric_name,timestamp,metric_value,error_code,expected_response,name,status,extra_tags,metadata") + rows).joinToString("\n"))))
        val a = csv(
            "http_req_duration,1000,2.000000,,true,read,200,,",
            "http_req_duration,1001,4.000000,,true,read,200,,",
            "http_req_duration,1002,8.000000,,false,write,400,,",
            "http_req_duration,1003,1000.000000,1050,false,write,0,,",
        )
        assertThat(a.byName.keys).containsExactly("read", "write")
        assertThat(a.byName.getValue("read").expected).isEqualTo(2)
        assertThat(a.byName.getValue("write").failures).containsExactly(entry("timeout", 1L))
        val merged = K6Samples.merge(listOf(a, csv("http_req_duration,2000,3.000000,,true,read,200,,")))
        assertThat(merged.byName.getValue("read").responses).isEqualTo(3)

        val named = K6Driver.named(request(Path.of("unused")), a, 2.0)
        assertThat(named.map { it.name }).containsExactly("read", "write")
        assertThat(named[0].throughput).isEqualTo(1.0)
        assertThat(named[0].latency.p50).isEqualTo(2.0)
        assertThat(named[1].errors).containsExactly(entry("status", 1L), entry("timeout", 1L))
        assertThat(named[1].request).isEqualTo("POST /orders")
    }

    @Test
    fun `a scenario's steps are named by their request line in k6's script and figures`(@TempDir dir: Path) {
        val calls = listOf(
            HttpCall(URI.create("http://127.0.0.1:1/todo"), "POST", "{}", null, 201, name = "create"),
            HttpCall(URI.create("http://127.0.0.1:1/todo"), "GET", null, null, 200, name = "GET /todo"),
        )
        val req = request(dir).copy(traffic = null, scenarioCalls = calls)
        val samples = K6Samples.read(BufferedReader(StringReader(listOf(
            "metric_name,timestamp,metric_value,error_code,expected_response,name,status",
            "http_req_duration,1000,2.000000,,true,create,201",
            "http_req_duration,1001,3.000000,,true,GET /todo,200",
        ).joinToString("\n"))))
        assertThat(K6Driver.named(req, samples, 1.0).map { Triple(it.name, it.request, it.responses) })
            .containsExactly(Triple("create", "POST /todo", 1L), Triple("GET /todo", "GET /todo", 1L))
    }

    @Test
    fun `oha refuses fed and mixed requests`(@TempDir dir: Path) {
        assertThat(runCatching { OhaDriver().command(request(dir), Path.of("/bin/oha")) }.exceptionOrNull())
            .hasMessageContaining("oha sends one request template for a whole run")
    }
}
