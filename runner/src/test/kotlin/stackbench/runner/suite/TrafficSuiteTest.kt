package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.cell.VerifyLog
import stackbench.runner.plan.Planner
import stackbench.runner.sut.Answer
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import tools.jackson.databind.json.JsonMapper
import java.nio.file.Files
import java.nio.file.Path

/** `feed:` and `mix:` of a declared endpoint: read, planned as one cell, refused by the drivers that cannot, every bad input named. */
class TrafficSuiteTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))

    private fun suite(dir: Path, endpoint: String, load: String = "{driver: wrk, connections: [4], duration: 5s}"): String {
        Files.writeString(dir.resolve("ids.csv"), "id,region\n1,eu\n2,us\n\"3\",\"ap, south\"\n")
        Files.writeString(dir.resolve("users.jsonl"), "{\"user\": \"ann\", \"age\": 31}\n\n{\"user\": \"bob\", \"age\": 40}\n")
        return "name: t\napps:\n  - name: svc\n    jar: svc.jar\n    jvm-args: [\"-Dport={port}\"]\nendpoints:\n  - kind: http\n    name: orders\n" +
            endpoint.trimIndent().lines().joinToString("\n") { "    $it" } + "\nload: $load\n"
    }

    private fun parse(dir: Path, endpoint: String, load: String = "{driver: wrk, connections: [4], duration: 5s}") =
        parser.parse(suite(dir, endpoint, load), dir.resolve("t.yaml").toString())

    private fun problems(dir: Path, endpoint: String, load: String = "{driver: wrk, connections: [4], duration: 5s}"): List<SuiteProblem> =
        (runCatching { parse(dir, endpoint, load) }.exceptionOrNull() as? SuiteException)?.problems ?: error("expected the suite to be rejected")

    private val mix = """
        feed:
          ids: {file: ids.csv, pick: random}
          qty: {range: 1..9}
          who: {file: users.jsonl}
        mix:
          - {name: read, weight: 70, path: "/orders/{ids.id}?region={ids.region}", check: {json: /id, equals: "{ids.id}"}}
          - name: write
            weight: 30
            method: POST
            path: /orders
            headers: {X-User: "{who.user}"}
            body: '{"item": "pen", "quantity": {qty}}'
    """

    @Test
    fun `a mix and its feeds read into one request of the endpoint, values kept apart from the sweep`(@TempDir dir: Path) {
        val spec = (parse(dir, mix).endpoints.single() as EndpointSpec.Http).spec
        val traffic = spec.requests().single().traffic!!
        assertThat(traffic.mixed).isTrue()
        assertThat(traffic.requests.map { Triple(it.name, it.line, it.weight) }).containsExactly(
            Triple("read", "GET /orders/{ids.id}?region={ids.region}", 70), Triple("write", "POST /orders", 30))
        assertThat(traffic.requests[1].status).`as`("a POST expects 201 unless told").isEqualTo(201)
        val (ids, qty, who) = traffic.feeds
        assertThat(ids.columns).containsExactly("id", "region")
        assertThat(ids.rows).containsExactly(listOf("1", "eu"), listOf("2", "us"), listOf("3", "ap, south"))
        assertThat(ids.pick).isEqualTo(Pick.RANDOM)
        assertThat(qty.rows).hasSize(9)
        assertThat(qty.pick).`as`("sequential unless told").isEqualTo(Pick.SEQUENTIAL)
        assertThat(who.columns).containsExactly("user", "age")
        assertThat(who.rows).containsExactly(listOf("ann", "31"), listOf("bob", "40"))
    }

    @Test
    fun `a mix is one cell, not one per request or per value`(@TempDir dir: Path) {
        val plan = Planner.plan(parse(dir, mix))
        assertThat(plan.cells.map { it.configKey }.distinct()).containsExactly("svc/http-orders/c4")
    }

    @Test
    fun `one fed request is one cell, its feed no sweep`(@TempDir dir: Path) {
        val suite = parse(dir, """
            feed: {ids: {file: ids.csv}}
            path: /orders/{ids.id}
            params: {v: [1, 2]}
            headers: {X-V: "{v}"}
        """)
        val plan = Planner.plan(suite)
        assertThat(plan.cells.map { it.configKey }.distinct()).containsExactly("svc/http-orders-v1/c4", "svc/http-orders-v2/c4")
        val traffic = plan.cells.first().endpoint.http!!.traffic!!
        assertThat(traffic.mixed).isFalse()
        assertThat(traffic.requests.single().headers).containsEntry("X-V", "1")
    }

    @Test
    fun `the verification sends every request of the mix, a fed one for a sample of its values`(@TempDir dir: Path) {
        val traffic = (parse(dir, mix).endpoints.single() as EndpointSpec.Http).spec.requests().single().traffic!!
        val planned = VerifyLog.planned(traffic, JsonMapper.builder().build())
        val reads = planned.filter { it.name == "read" }.map { it.path }
        assertThat(reads).startsWith("/orders/1?region=eu", "/orders/2?region=us", "/orders/3?region=ap, south")
        assertThat(reads.size).isBetween(3, FeedSample.SIZE)
        assertThat(planned.filter { it.name == "write" }).isNotEmpty.allMatch { it.body!!.matches(Regex("""\{"item": "pen", "quantity": \d}""")) }
        val first = planned.first()
        assertThat(first.check(Answer(200, """{"id": 1}""", 1.0))).isNull()
        assertThat(first.check(Answer(200, """{"id": 2}""", 1.0))).isEqualTo("expected /id = 1, got 2")
        assertThat(first.check(Answer(404, "no", 1.0))).startsWith("expected status 200, got 404")
        val log = VerifyLog.text(listOf(VerifyLog.Checked("read", "GET", "/orders/783", Answer(200, "{}", 1.2), null)), traffic)
        assertThat(log).contains("read GET /orders/783 -> 200 in 1.2 ms ok", "# fed values checked: the first 3 rows")
    }

    @Test
    fun `the example suites read 1,000 ids from the data file, a 70-30 mix, one cell a process`() {
        val root = listOf(Path.of("suites"), Path.of("../suites")).first { Files.isDirectory(it.resolve("data")) }
        for (file in listOf("own-app-mix.yaml", "own-app-mix-k6.yaml")) {
            val suite = SuiteParser(MachineFacts(cpus = 4)).read(root.resolve(file), root.resolve(file).toString())
            val traffic = (suite.endpoints.single() as EndpointSpec.Http).spec.requests().single().traffic!!
            assertThat(traffic.feeds.first().rows).`as`(file).hasSize(1000)
            assertThat(traffic.requests.map { it.name to it.weight }).containsExactly("read" to 70, "write" to 30)
            assertThat(Planner.plan(suite).cells).`as`(file).hasSize(suite.processes * suite.repetitions)
        }
    }

    @Test
    fun `a feed file's bad row names the file and its line, at the suite's file key`(@TempDir dir: Path) {
        Files.writeString(dir.resolve("bad.csv"), "id\n1\n2,3\n")
        val p = problems(dir, """
            feed: {ids: {file: bad.csv}}
            path: /orders/{ids.id}
        """).single()
        assertThat(p.key).isEqualTo("endpoints[0].feed.ids.file")
        assertThat(p.line).isEqualTo(9)
        assertThat(p.message).isEqualTo("${dir.resolve("bad.csv")}:3: has 2 fields, the header row 1 (id)")
    }

    @Test
    fun `a missing file, a bad range, a bad pick and a feed with no source are each named`(@TempDir dir: Path) {
        val all = problems(dir, """
            feed:
              a: {file: nowhere.csv}
              b: {range: 9..1}
              c: {one-of: [x], pick: often}
              d: {pick: random}
            path: /x/{a.id}/{b}/{c}/{d}
        """)
        assertThat(all.map { it.key to it.message.substringBefore(":") }).contains(
            "endpoints[0].feed.a.file" to "cannot read ${dir.resolve("nowhere.csv")}",
            "endpoints[0].feed.b.range" to "'9..1' is an empty range",
            "endpoints[0].feed.c.pick" to "'often' is not a way to draw values",
            "endpoints[0].feed.d" to "must give one of file, range, one-of",
        )
    }

    @Test
    fun `a placeholder naming no column, no feed or a feed of several columns is named`(@TempDir dir: Path) {
        val all = problems(dir, """
            feed: {ids: {file: ids.csv}}
            path: /orders/{ids.nope}/{ids}/{other.x}/{free}
        """).map { it.message }
        assertThat(all).contains(
            "names {ids.nope}, but the feed ids has no column nope (its columns: id, region)",
            "names {ids}, but the feed has the columns id, region: write {ids.id}",
            "names {other.…}, but there is no feed other",
            "names {free}, which params: does not give",
        )
    }

    @Test
    fun `mix mistakes, a name twice, none, a top-level path beside it, a secret in a path`(@TempDir dir: Path) {
        val all = problems(dir, """
            path: /top
            mix:
              - {name: read, path: /a}
              - {name: read, path: "/b/${'$'}{env:TOKEN}"}
              - {path: /c}
        """).map { it.key to it.message }
        assertThat(all.map { it.second }).anyMatch { it == "does not apply beside mix: each request of the mix gives its own" }
        assertThat(all).anyMatch { it.first == "endpoints[0].mix[1].name" && it.second == "'read' names two requests of the mix" }
        assertThat(all).anyMatch { it.first == "endpoints[0].mix[2].name" && it.second == "is required" }
        assertThat(all).anyMatch { it.first == "endpoints[0].mix[1].path" && it.second.startsWith("holds \${env:…} in the path of a fed or mixed request") }
    }

    @Test
    fun `oha refuses a mix with its reason, at the mix`(@TempDir dir: Path) {
        val p = problems(dir, mix, "{driver: oha, connections: [4], duration: 5s}").single()
        assertThat(p.key).isEqualTo("endpoints.orders.mix")
        assertThat(p.line).isEqualTo(13)
        assertThat(p.message).startsWith("load.driver oha cannot send this mix: oha sends one request template for a whole run")
    }

    @Test
    fun `wrk refuses per-user values and a mix above its connections, k6 sends both`(@TempDir dir: Path) {
        val perUser = """
            feed: {ids: {file: ids.csv, pick: per-user}}
            path: /orders/{ids.id}
        """
        assertThat(problems(dir, perUser).single().message).contains("wrk's request() hook is not told which connection sends")
        assertThat(problems(dir, mix, "{driver: wrk, connections: [100], duration: 5s}").single().message)
            .contains("at most 64 connections, not 100; use driver: k6 for more")
        parse(dir, perUser, "{driver: k6, connections: [4], duration: 5s}")
        parse(dir, mix, "{driver: k6, model: open, rates: [100], duration: 5s}")
    }

    @Test
    fun `a scenario does not take a fed or mixed endpoint`(@TempDir dir: Path) {
        val p = problems(dir, mix, "{driver: k6, model: scenario, scenario: {users: [{duration: 5s, target: 2}], steps: [GET /x]}}")
        assertThat(p.map { it.message }).anyMatch { it.contains("a scenario sends its own steps") }
    }

    @Test
    fun `CSV and JSON lines files read as tables, a bad line named`() {
        assertThat(FeedFiles.csv("a,b\r\n\"x \"\"q\"\"\",\"1\n2\"\r\n").rows).containsExactly(listOf("x \"q\"", "1\n2"))
        assertThat(FeedFiles.csv("a b\n1\n").problem).isEqualTo(1 to "column 1 of the header row is 'a b': name each column with letters, digits, '_' or '-'")
        val json = JsonMapper.builder().build()
        assertThat(FeedFiles.jsonLines("{\"a\": 1, \"b\": {\"c\": 2}}\n", json).rows).containsExactly(listOf("1", "{\"c\":2}"))
        assertThat(FeedFiles.jsonLines("{\"a\": 1}\n[1]\n", json).problem).isEqualTo(2 to "is not a JSON object")
        assertThat(FeedFiles.jsonLines("{\"a\": 1}\n{\"b\": 1}\n", json).problem).isEqualTo(2 to "has no a (the first line's keys: a)")
    }
}
