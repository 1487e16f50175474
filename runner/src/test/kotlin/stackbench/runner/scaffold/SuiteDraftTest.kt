package stackbench.runner.scaffold

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import stackbench.runner.suite.AppSource
import java.nio.file.Path

class SuiteDraftTest {
    private fun draft(app: AppDraft, check: BodyCheck?) = SuiteDraft("orders", "stackbench init orders.jar", app, "/actuator/health" to 200,
        "readiness: /actuator/health answered 200", "/orders/1", CheckDraft(200, check, "GET /orders/1: JSON"), ProcessChoice(4, listOf("pilot: 3 processes")), 2)

    @Test
    fun `a Spring Boot jar's suite reads as plan reads it, in the own-app syntax`() {
        val facts = JarFacts(Framework.SPRING_BOOT, "its manifest's Spring-Boot-Version 3.5.16")
        val text = draft(AppDraft.Jar("../build/orders.jar", facts, listOf("--server.port={port}"), emptyList(), emptyMap()), BodyCheck.Json("/id", "1")).render()
        assertThat(text).contains("    jar: ../build/orders.jar\n", "    args: [\"--server.port={port}\"]\n",
            "    ready: {path: /actuator/health, status: 200, timeout: 60s}\n", "    check: {json: /id, equals: \"1\"}\n", "processes: 4\n", "# pilot: 3 processes\n")
        val suite = SuiteParser(MachineFacts(2), Path.of("/tmp")).parse(text, "bench/orders.yaml")
        assertThat(suite.name).isEqualTo("orders")
        assertThat(suite.processes).isEqualTo(4)
        assertThat((suite.apps.single().source as AppSource.Jar).args).containsExactly("--server.port={port}")
    }

    @Test
    fun `an unknown jar takes PORT, a URL gets the profile a URL takes, and both read`() {
        val unknown = draft(AppDraft.Jar("wiremock.jar", JarFacts(Framework.UNKNOWN, "no mark"), emptyList(), emptyList(), mapOf("PORT" to "{port}")), BodyCheck.Contains("Hello, \"you\""))
        val text = unknown.render()
        assertThat(text).contains("    env: {PORT: \"{port}\"}\n", "check: {contains: \"Hello, \\\"you\\\"\"}")
        SuiteParser(MachineFacts(2), Path.of("/tmp")).parse(text, "orders.yaml")
        // anything below 500 on / is the default readiness: no ready: key (a {path} without status would mean 200)
        val anyAnswer = unknown.copy(ready = "/" to null).render()
        assertThat(anyAnswer).doesNotContain("ready:").contains("the lab's default readiness")
        val readDefault = SuiteParser(MachineFacts(2), Path.of("/tmp")).parse(anyAnswer, "orders.yaml")
        assertThat(readDefault.apps.single().ready).isNull()
        val url = draft(AppDraft.Url("http://10.0.0.7:8080"), null).render()
        assertThat(url).contains("  cpus: none\n").doesNotContain("cpuset").doesNotContain("check:")
        SuiteParser(MachineFacts(2), Path.of("/tmp")).parse(url, "orders.yaml")
    }

    @Test
    fun `endpoint names and scalars`() {
        assertThat(SuiteDraft.endpointName("/orders/1?full=true")).isEqualTo("orders_1_full_true")
        assertThat(SuiteDraft.endpointName("/")).isEqualTo("root")
        assertThat(SuiteDraft.scalar("/__admin/health")).isEqualTo("/__admin/health")
        assertThat(SuiteDraft.scalar("a b")).isEqualTo("\"a b\"")
        assertThat(SuiteDraft.scalar("true")).isEqualTo("\"true\"")
    }
}
