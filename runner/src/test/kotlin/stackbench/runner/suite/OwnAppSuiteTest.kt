package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.plan.EndpointKind
import stackbench.runner.plan.Planner
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import tools.jackson.databind.ObjectMapper
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/** Own apps (`jar:`, `command:`) and declared endpoints (`kind: http`) in a suite: what they read into, and every bad input named. */
class OwnAppSuiteTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))

    private fun parse(yaml: String, source: String = "suites/own.yaml") = parser.parse(yaml.trimIndent(), source)

    private fun problems(yaml: String): List<SuiteProblem> =
        (runCatching { parse(yaml) }.exceptionOrNull() as? SuiteException)?.problems ?: error("expected the suite to be rejected")

    private fun List<SuiteProblem>.one(): SuiteProblem {
        assertThat(this).`as`(joinToString(" / ") { it.render() }).hasSize(1)
        return single()
    }

    private val own = """
        name: own
        apps:
          - name: orders
            jar: ../examples/orders.jar
            jvm-args: ["-Dquarkus.http.port={port}"]
            env: {ORDERS_MODE: fast}
            ready: {path: /q/health/ready, status: 200, timeout: 60s}
          - name: native
            command: [./bin/orders-server, --port, "{port}", --address, "{address}"]
            ready: /ready
          - name: tc
            stack: tomcat
        endpoints:
          - kind: http
            name: order
            path: /orders/{id}
            params: {id: [1, 7]}
            headers: {Accept: application/json}
            check: {json: /id, equals: "{id}"}
            concurrency-limit: 200
            apps: [orders, native]
          - kind: http
            name: create
            method: post
            path: /orders
            body: '{"item":"pen","quantity":2}'
            check: {contains: pen}
            apps: [orders]
          - kind: cpu
            strategies: [direct]
            limit: 10000
    """

    @Test
    fun `a jar and a command read with their paths joined to the suite's folder, their readiness and their settings`() {
        val suite = parse(own)
        val (jar, command, builtin) = suite.apps
        assertThat(jar.source).isEqualTo(AppSource.Jar("examples/orders.jar", emptyList(), mapOf("ORDERS_MODE" to "fast")))
        assertThat(jar.jvmArgs).containsExactly("-Dquarkus.http.port={port}")
        assertThat(jar.ready).isEqualTo(Readiness("/q/health/ready", 200, Duration.ofSeconds(60)))
        assertThat(jar.stack).isNull()
        assertThat(command.source).isEqualTo(AppSource.Command(listOf("suites/bin/orders-server", "--port", "{port}", "--address", "{address}"), emptyMap()))
        assertThat(command.ready).isEqualTo(Readiness("/ready", 200, Readiness.DEFAULT_TIMEOUT))
        assertThat(builtin.stack).isNotNull()
    }

    @Test
    fun `declared endpoints sweep their parameters, fill them in path and check, and the built-in kinds stay on the built-in apps`() {
        val plan = Planner.plan(parse(own))
        val keys = plan.cells.map { it.configKey }.distinct()
        assertThat(keys).contains("orders/http-order-id1/c50", "orders/http-order-id7/c50", "native/http-order-id7/c50", "orders/http-create/c50",
            "tc/cpu-direct-limit10000/c50")
        assertThat(keys.filter { it.startsWith("tc/") }).containsExactly("tc/cpu-direct-limit10000/c50")
        assertThat(keys.filter { it.startsWith("native/") }).hasSize(2)
        val seven = plan.cells.first { it.configKey == "orders/http-order-id7/c50" }.endpoint
        assertThat(seven.kind).isEqualTo(EndpointKind.HTTP)
        assertThat(seven.path).isEqualTo("/orders/7")
        assertThat(seven.http!!.headers).containsEntry("Accept", "application/json")
        assertThat(seven.http.check).isEqualTo(BodyCheck.JsonAt("/id", "7"))
        assertThat(seven.http.concurrencyLimit).isEqualTo(200)
        val create = plan.cells.first { it.configKey == "orders/http-create/c50" }.endpoint
        assertThat(create.method).isEqualTo("POST")
        assertThat(create.http!!.status).`as`("a POST expects 201 unless told").isEqualTo(201)
        assertThat(create.http!!.body).isEqualTo("""{"item":"pen","quantity":2}""")
    }

    @Test
    fun `body checks pass and fail on real bodies, saying what was expected and what came`() {
        val json = ObjectMapper()
        val body = """{"id":7,"item":"pen","lines":[{"qty":2}]}"""
        assertThat(BodyCheck.JsonAt("/id", "7").problem(body, json)).isNull()
        assertThat(BodyCheck.JsonAt("/lines/0/qty", "2").problem(body, json)).isNull()
        assertThat(BodyCheck.JsonAt("/item", "pencil").problem(body, json)).isEqualTo("expected /item = pencil, got pen")
        assertThat(BodyCheck.JsonAt("/price", "1").problem(body, json)).startsWith("expected a value at /price, found none")
        assertThat(BodyCheck.JsonAt("/id", "7").problem("<html>", json)).isEqualTo("expected JSON, got '<html>'")
        assertThat(BodyCheck.Contains("pen").problem(body, json)).isNull()
        assertThat(BodyCheck.Exact("ok").problem("ok ", json)).isEqualTo("expected exactly 'ok', got 'ok '")
        assertThat(BodyCheck.Matches("\"id\":\\d+").problem(body, json)).isNull()
        assertThat(BodyCheck.Matches("^\\[").problem(body, json)).startsWith("expected a body matching /^\\[/")
    }

    @Test
    fun `a body file is read from the suite's folder, and a missing one is named`(@TempDir dir: Path) {
        Files.writeString(dir.resolve("order.json"), """{"item":"ink"}""")
        val withFile = SuiteParser(MachineFacts(2), dir)
        val yaml = "name: f\napps: [{stack: tomcat}]\nendpoints: [{kind: http, name: p, method: POST, path: /todo, body-file: order.json}]"
        assertThat(withFile.parse(yaml, "f.yaml").endpoints.single().let { (it as EndpointSpec.Http).spec.body }).isEqualTo("""{"item":"ink"}""")
        val p = (runCatching { withFile.parse(yaml.replace("order.json", "nope.json"), "f.yaml") }.exceptionOrNull() as SuiteException).problems.one()
        assertThat(p.key).isEqualTo("endpoints[0].body-file")
        assertThat(p.message).contains("cannot read ${dir.resolve("nope.json")}")
    }

    @Test
    fun `bad own apps are named at their key`() {
        fun only(app: String) = problems("name: b\napps:\n  - $app\nendpoints: [{kind: http, name: x, path: /}]")
        assertThat(only("{jar: a.jar, stack: tomcat, args: [\"{port}\"]}").one().message).contains("an app is one of stack, jar, command or url")
        assertThat(only("{jar: app.war, args: [\"{port}\"]}").one().message).contains("'app.war' is not a .jar file")
        assertThat(only("{jar: a.jar}").one().let { it.key to it.message }).isEqualTo("apps[0].args" to
            "never passes {port}: the lab picks a free port for every start and cannot tell the app which")
        assertThat(only("{command: []}").one().message).isEqualTo("must not be empty")
        assertThat(only("{command: [\"\"]}").one().message).isEqualTo("must list the program and its arguments")
        assertThat(only("{jar: a.jar, args: [\"{port}\"], virtual-threads: true}").one().let { it.key to it.message })
            .isEqualTo("apps[0].virtual-threads" to "is for the built-in apps: the built-in apps' switch (spring.threads.virtual.enabled)")
        assertThat(only("{command: [./s, \"{port}\"], jvm-args: [-Xmx1g]}").one().key).isEqualTo("apps[0].jvm-args")
        assertThat(only("{jar: a.jar, args: [\"{port}\"], ready: health}").one().message).isEqualTo("'health' is not a path")
        assertThat(only("{jar: a.jar, args: [\"{port}\"], ready: {path: /h, status: 999}}").one().key).isEqualTo("apps[0].ready.status")
    }

    @Test
    fun `bad declared endpoints are named at their key`() {
        fun only(endpoint: String) = problems("name: b\napps: [{name: o, jar: o.jar, args: [\"{port}\"]}]\nendpoints:\n  - $endpoint")
        assertThat(only("{kind: http, path: /x}").one().key).isEqualTo("endpoints[0].name")
        assertThat(only("{kind: http, name: x, path: x}").one().message).isEqualTo("'x' must start with '/'")
        assertThat(only("{kind: http, name: x, path: '/o/{id}'}").one().message).isEqualTo("names {id}, which params: does not give")
        assertThat(only("{kind: http, name: x, path: '/o/{id}', params: {id: 1..500}}").one().message).isEqualTo("sweeps 500 values: each is a configuration of its own")
        assertThat(only("{kind: http, name: x, method: FETCH, path: /}").one().key).isEqualTo("endpoints[0].method")
        assertThat(only("{kind: http, name: x, path: /, check: {json: count, equals: 1}}").one().message).isEqualTo("'count' is not a JSON Pointer")
        assertThat(only("{kind: http, name: x, path: /, check: {contains: a, regex: b}}").one().message).startsWith("must give one of exact, contains, regex, json")
        assertThat(only("{kind: http, name: x, path: /, check: {regex: '(a'}}").one().message).startsWith("'(a' is not a regular expression")
        assertThat(only("{kind: noop, apps: [o]}").one().message).contains("'o' is your own app: it serves only the endpoints you declare")
    }

    @Test
    fun `a range sweeps every value in it`() {
        val suite = parse("name: r\napps: [{stack: tomcat}]\nendpoints: [{kind: http, name: o, path: '/o/{id}', params: {id: 3..5}}]")
        assertThat(Planner.plan(suite).cells.map { it.endpoint.path }.distinct()).containsExactly("/o/3", "/o/4", "/o/5")
    }
}
