package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.plan.Planner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Files
import java.nio.file.Path

/** A mixed load's window read request by request: results.json, results.csv, and a cell read as one request alone. */
class NamedRequestsTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}, {stack: webflux}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]", "t.yaml"))

    /** A window of 10 s at 1,000 req/s: 700 req/s of `read` (p99 4 ms), 300 of `write` (p99 20 ms, 30 errors). */
    private fun mixed(cell: CellResult): CellResult = cell.staged(measured = cell.window.measured!!.copy(requests = listOf(
        NamedLoad("read", "GET /orders/{id}", 7000, 7000, 700.0, mapOf("200" to 7000),
            latency = LatencyStats(p50 = 1.0, p90 = 2.0, p99 = 4.0, max = 9.0), spectrum = listOf(PercentilePoint(50.0, 1.0), PercentilePoint(99.0, 4.0))),
        NamedLoad("write", "POST /orders", 3000, 2970, 297.0, mapOf("201" to 2970, "500" to 30), mapOf("status" to 30),
            latency = LatencyStats(p50 = 5.0, p90 = 10.0, p99 = 20.0, max = 40.0), spectrum = listOf(PercentilePoint(50.0, 5.0), PercentilePoint(99.0, 20.0))),
    )))

    private val result = RunResult(run = Fixtures.info(2), environment = Fixtures.environment(),
        cells = listOf(mixed(Fixtures.cell(plan.cells[0])), Fixtures.cell(plan.cells[1])))

    @Test
    fun `results json carries each named request and reads it back, a record without them still reads, with none`(@TempDir dir: Path) {
        ResultsStore(dir).write(result)
        val json = Files.readString(dir.resolve("results.json"))
        assertThat(json).contains("\"requests\"", "\"name\" : \"read\"", "\"request\" : \"POST /orders\"")
        assertThat(ResultsStore.read(dir)).isEqualTo(result)
        assertThat(ResultsStore.read(dir).cells[0].window.measured!!.requests.map { it.name }).containsExactly("read", "write")
        // an older record, written before requests were: the field is simply absent
        val old = Json.mapper.readTree(json).also { root ->
            root.path("cells").values().forEach { c -> (c.path("window").path("measured") as tools.jackson.databind.node.ObjectNode).remove("requests") }
        }
        Files.writeString(dir.resolve("results.json"), Json.mapper.writeValueAsString(old))
        assertThat(ResultsStore.read(dir).cells.map { it.window.measured!!.requests }).containsExactly(emptyList(), emptyList())
    }

    @Test
    fun `results csv has the cell's row (request all), then a row per named request with its own figures and the cell's identity`() {
        val lines = ResultsCsv.render(result).trim().lines()
        assertThat(lines).hasSize(1 + 3 + 1)
        val header = lines[0].split(",")
        fun row(i: Int) = header.zip(lines[i].split(",")).toMap()
        assertThat(header).contains("request")
        assertThat(header.indexOf("request")).isEqualTo(header.indexOf("endpoint") + 1)
        assertThat(row(1)).containsEntry("request", "all").containsEntry("throughput", "1000.0")
        assertThat(row(2)).containsEntry("request", "read").containsEntry("throughput", "700.0").containsEntry("p99Ms", "4.0")
            .containsEntry("key", row(1)["key"]).containsEntry("app", row(1)["app"]).containsEntry("errors", "0")
            .containsEntry("cpuShare", "").containsEntry("requestsPerCpuSecond", "")
        assertThat(row(3)).containsEntry("request", "write").containsEntry("errors", "30").containsEntry("p50Ms", "5.0")
            .containsEntry("errorRate", (30.0 / 3000).toString())
        // a cell of one request keeps its single row
        assertThat(row(4)).containsEntry("request", "all").containsEntry("key", "\"${result.cells[1].key}\"")
    }

    @Test
    fun `a cell read as one request alone has that request's answers, throughput, errors and latency, and the cell's other figures`() {
        val cell = result.cells[0]
        val write = NamedRequests.alone(cell, "write")!!
        val m = write.window.measured!!
        assertThat(m.throughput).isEqualTo(297.0)
        assertThat(m.errorCount).isEqualTo(30)
        assertThat(m.latency.p99).isEqualTo(20.0)
        assertThat(m.requests).isEmpty()
        assertThat(m.wallSeconds).isEqualTo(cell.window.measured!!.wallSeconds)
        assertThat(write.key).isEqualTo(cell.key)
        assertThat(NamedRequests.alone(cell, "delete")).isNull()
        assertThat(NamedRequests.names(result.cells)).containsExactly("read", "write")
    }

    @Test
    fun `a request no compared cell measured is named with the requests they have`() {
        val mixedKey = result.cells[0].configKey
        val plainKey = result.cells[1].configKey
        assertThat(NamedRequests.missing(mixedKey, result.cells, "read")).isNull()
        assertThat(NamedRequests.missing(mixedKey, result.cells, "reed"))
            .isEqualTo("request 'reed' is not a named request of $mixedKey (its requests: read, write)")
        assertThat(NamedRequests.missing(plainKey, result.cells, "read"))
            .isEqualTo("request 'read' is not a named request of $plainKey (its cells measured one request, not a mix or a scenario's steps)")
    }

    @Test
    fun `a run read as one request keeps the configurations that measured it, and refuses a name none did`() {
        val read = NamedRequests.run(result, "read")
        assertThat(read.cells.map { it.configKey }).containsExactly(result.cells[0].configKey)
        assertThat(read.cells[0].window.measured!!.throughput).isEqualTo(700.0)
        assertThatThrownBy { NamedRequests.run(result, "delete") }.isInstanceOf(IllegalArgumentException::class.java)
            .hasMessage("request 'delete' is not a named request of run ${result.run.id}: its requests are read, write")
    }
}
