package stackbench.runner.sut

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.contract.DownstreamService
import stackbench.contract.Todos
import stackbench.runner.plan.Planner
import stackbench.runner.results.Json
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Path

class SutTest {
    private fun cells(yaml: String) = Planner.plan(SuiteParser(MachineFacts(2)).parse(yaml.trimIndent(), "s.yaml")).cells

    @Test
    fun `the app command carries the profile, the suite's settings and the runner's ports`() {
        val cell = cells(
            """
            name: t
            apps: [{name: a, stack: webflux, system-properties: {reactor.netty.ioWorkerCount: 1}, properties: {stackbench.cpu-pool.size: 2}, jvm-args: [-XX:+UseSerialGC]}]
            profile: {cpus: 1, memory: 1GiB, heap: 75%}
            endpoints: [{kind: noop}]
            repetitions: 1
            """,
        ).single()
        val command = AppCommand.build(Path.of("/jdk/bin/java"), Path.of("/app.jar"), cell, 2, "127.0.0.1", AppPorts(8080, 8081), null, Path.of("/run/gc.log"))
        assertThat(command).containsExactly(
            "/jdk/bin/java", "-XX:ActiveProcessorCount=1", "-Xms768m", "-Xmx768m", "-XX:+ExitOnOutOfMemoryError",
            "-Xlog:gc:file=/run/gc.log:utctime,uptime,level,tags", "-Dreactor.netty.ioWorkerCount=1", "-XX:+UseSerialGC",
            "-jar", "/app.jar", "--server.port=8080", "--server.address=127.0.0.1", "--stackbench.stats.port=8081", "--stackbench.stats.address=127.0.0.1",
            "--spring.threads.virtual.enabled=false", "--stackbench.cpu-pool.size=2",
        )
    }

    @Test
    fun `with a database a servlet app gets the JDBC data source and a reactive one the R2DBC one too, before the suite's own properties`() {
        fun args(stack: String) = AppCommand.appArgs(
            cells("name: t\napps: [{stack: $stack, properties: {stackbench.db.pool: 10}}]\nendpoints: [{kind: noop}]\ndatabase: postgresql").first(),
            "127.0.0.1", AppPorts(8080, 8081), null, stackbench.runner.database.DatabaseEndpoint("127.0.0.1", 5999),
        )
        assertThat(args("tomcat").drop(5)).containsExactly(
            "--spring.datasource.url=jdbc:postgresql://127.0.0.1:5999/stackbench", "--spring.datasource.username=stackbench",
            "--spring.datasource.password=stackbench", "--stackbench.db.pool=10",
        )
        assertThat(args("webflux").drop(5)).containsExactly(
            "--spring.datasource.url=jdbc:postgresql://127.0.0.1:5999/stackbench", "--spring.datasource.username=stackbench",
            "--spring.datasource.password=stackbench", "--spring.r2dbc.url=r2dbc:postgresql://127.0.0.1:5999/stackbench",
            "--spring.r2dbc.username=stackbench", "--spring.r2dbc.password=stackbench", "--stackbench.db.pool=10",
        )
        val without = AppCommand.appArgs(cells("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]").first(), "127.0.0.1", AppPorts(8080, 8081), null)
        assertThat(without.filter { it.contains("datasource") || it.contains("r2dbc") }).isEmpty()
    }

    @Test
    fun `Spring's own startup figure is read from the log`() {
        val lines = listOf(
            "2026-11-22T06:00:00.000Z  INFO 1 --- [main] s.a.t.TomcatApplication : Starting TomcatApplication",
            "2026-11-22T06:00:02.000Z  INFO 1 --- [main] s.a.t.TomcatApplication : Started TomcatApplication in 2.345 seconds (process running for 2.901)",
        )
        assertThat(SpringLog.started(lines)).isEqualTo(SpringLog.Started(2.345, 2.901))
        assertThat(SpringLog.started(listOf("nothing"))).isNull()
    }

    private val expectations = Expectations(Json.mapper)
    private fun call(path: String) = cells("name: t\napps: [{stack: tomcat}]\nendpoints: [$path]").first().endpoint

    @Test
    fun `a CPU answer must carry the right prime count`() {
        val c = call("{kind: cpu, strategies: [direct], limit: 1000}")
        assertThat(expectations.check(c, Answer(200, """{"limit":1000,"primes":168}""", 3.0))).isNull()
        assertThat(expectations.check(c, Answer(200, """{"limit":1000,"primes":167}""", 3.0))).isEqualTo("expected 168 primes up to 1000, got 167")
        assertThat(expectations.check(c, Answer(500, "boom", 3.0))).isEqualTo("expected status 200, got 500: boom")
        assertThat(expectations.check(c, Answer(200, "<html>", 3.0))).startsWith("not JSON")
    }

    @Test
    fun `a wait must not answer sooner than its delay`() {
        val c = call("{kind: io, strategies: [blocking], delay: 100ms}")
        assertThat(expectations.check(c, Answer(200, """{"strategy":"blocking","delay":100}""", 101.0))).isNull()
        assertThat(expectations.check(c, Answer(200, """{"strategy":"blocking","delay":100}""", 40.0))).isEqualTo("answered in 40.0 ms, sooner than its 100 ms delay")
        val d = call("{kind: downstream, clients: [webclient], delay: 10ms}")
        val body = Json.mapper.writeValueAsString(mapOf("client" to "webclient", "delay" to 10, "downstream" to DownstreamService.body(10)))
        assertThat(expectations.check(d, Answer(200, body, 12.0))).isNull()
        assertThat(expectations.check(d, Answer(200, body.replace("webclient", "cf-java"), 12.0))).startsWith("expected client webclient")
    }

    @Test
    fun `todo answers must be the fixed list, or the posted item with the server's description and 201`() {
        val get = call("{kind: todo}")
        assertThat(expectations.check(get, Answer(200, Json.mapper.writeValueAsString(Todos.LIST), 1.0))).isNull()
        assertThat(expectations.check(get, Answer(200, Json.mapper.writeValueAsString(Todos.LIST.drop(1)), 1.0))).startsWith("expected [")
        val post = cells("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: todo, method: POST}]").first().endpoint
        val created = Todos.created(post.body!!)
        assertThat(expectations.check(post, Answer(201, Json.mapper.writeValueAsString(created), 1.0))).isNull()
        assertThat(expectations.check(post, Answer(200, Json.mapper.writeValueAsString(created), 1.0))).startsWith("expected status 201")
    }
}
