package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.ceiling.Ceilings
import stackbench.runner.plan.Planner
import stackbench.runner.results.Ceiling
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Json
import stackbench.runner.results.staged
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

class SideBySideTest {
    private val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse("""
        name: s
        apps:
          - {name: platform, stack: tomcat, properties: {server.tomcat.threads.max: 25}}
          - {name: virtual, stack: tomcat, virtual-threads: true, properties: {server.tomcat.threads.max: 25}}
        endpoints: [{kind: io, strategies: [blocking], delay: 100ms}]
        load: {connections: [50]}
        repetitions: 1
    """.trimIndent(), "s.yaml"))

    private fun info(threads: Int, execution: String) = Json.mapper.readTree("""
        {"server": "Apache Tomcat", "serverVersion": "11.0.24", "springBoot": "4.1.1", "jdk": "25.0.3", "requestExecution": "$execution",
         "garbageCollectors": ["Copy", "MarkSweepCompact"],
         "pools": [{"name": "tomcat.threads", "size": $threads, "kind": "threads"}, {"name": "tomcat.max-connections", "size": 8192, "kind": "connections"}]}
    """)

    private fun little(limit: Int, what: String, efficiency: Double) =
        Ceiling(Ceilings.LITTLE, limit * 10.0, "$limit $what ÷ 100 ms per request (a lone request) = ${limit * 10} req/s", efficiency, concurrency = limit)

    private val platform = plan.cells.first { it.app.name == "platform" }.let { c ->
        Fixtures.cell(c, throughput = 235.0).staged(ceiling = little(25, "request threads (tomcat.threads)", 0.94))
            .let { it.copy(system = it.system.copy(info = info(25, "platform threads")), app = it.app.copy(properties = mapOf("server.tomcat.threads.max" to "25"))) }
    }
    private val virtual = plan.cells.first { it.app.name == "virtual" }.let { c ->
        Fixtures.cell(c, throughput = 470.0).staged(ceiling = little(50, "connections (closed model)", 0.94))
            .let { it.copy(system = it.system.copy(info = info(25, "virtual threads")), app = it.app.copy(properties = mapOf("server.tomcat.threads.max" to "25"))) }
    }

    @Test
    fun `the two sides' settings side by side, the differences marked, the same ones not`() {
        val s = SideBySide.of(listOf(virtual), listOf(platform))
        val byName = s.settings.associateBy { it.name }
        assertThat(byName.getValue("request execution")).isEqualTo(SideBySide.Setting("request execution", "virtual threads", "platform threads"))
        assertThat(byName.getValue("request execution").differs).isTrue()
        assertThat(byName.getValue("pool tomcat.threads").differs).isFalse()
        assertThat(byName.getValue("pool tomcat.threads").a).isEqualTo("25 threads")
        assertThat(byName.getValue("property server.tomcat.threads.max").a).isEqualTo("25")
        assertThat(byName.getValue("server").a).isEqualTo("Apache Tomcat 11.0.24")
        assertThat(byName.getValue("GC").a).isEqualTo("Copy, MarkSweepCompact")
        // the same stack, pools, heap and load: the execution alone differs
        assertThat(s.differing.map { it.name }).containsExactly("request execution")
    }

    @Test
    fun `a pool below the connections that held a side at its ceiling binds it, the client's own connections do not`() {
        val s = SideBySide.of(listOf(virtual), listOf(platform))
        assertThat(s.bindsA).isEmpty()
        assertThat(s.bindsB).containsExactly("25 request threads (tomcat.threads) bound 1 window at 94 % of what it allows")
        // below 90 % of the ceiling the limit was not reached; a failed window says nothing
        assertThat(SideBySide.binds(listOf(platform.staged(ceiling = little(25, "request threads (tomcat.threads)", 0.80))))).isEmpty()
        assertThat(SideBySide.binds(listOf(platform.copy(status = CellStatus.FAILED)))).isEmpty()
        // two windows: the range of their shares
        assertThat(SideBySide.binds(listOf(platform, platform.staged(ceiling = little(25, "request threads (tomcat.threads)", 0.99)))))
            .containsExactly("25 request threads (tomcat.threads) bound 2 windows at 94 %-99 % of what it allows")
    }

    @Test
    fun `a side with no cells shows a dash for each setting of the other`() {
        val s = SideBySide.of(listOf(platform), emptyList())
        assertThat(s.settings).isNotEmpty().allSatisfy { assertThat(it.b).isEqualTo("–") }
    }
}
