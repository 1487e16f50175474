package stackbench.runner.findings

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.results.ComparisonRecord
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Json
import stackbench.runner.results.RunInfo
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.Suite
import stackbench.runner.suite.SuiteParser
import java.nio.file.Files
import java.nio.file.Path

/** `findings-run`'s plan from the project's own docs/claims.yaml and suites/: exactly the cells the selected rows need. */
class FindingsPlanTest {
    private val root = Path.of("..")
    private val claims = ClaimsParser.parse(Files.readString(root.resolve("docs/claims.yaml")), "docs/claims.yaml")
    private val suites = mutableMapOf<String, Suite>()
    private fun suite(run: String): Suite = suites.getOrPut(run) {
        SuiteParser(MachineFacts(2)).parse(Files.readString(root.resolve("suites/$run.yaml")), "suites/$run.yaml")
    }

    private fun plan(vararg ids: String) = FindingsPlanner.plan(claims, ids.toList(), ::suite)

    private val heavy = listOf(50000, 100000, 200000, 300000)

    @Test
    fun `cpu-offload-p99 plans Tomcat's pool and request thread at the heavy limits in its full-length run, and drives their p99`() {
        val p = plan("cpu-offload-p99")
        val run = p.runs.single()
        assertThat(run.run).isEqualTo("cpu-bound-offload")
        assertThat(run.configs).containsExactlyInAnyOrderElementsOf(
            heavy.flatMap { listOf("tomcat/cpu-direct-limit$it/c400", "tomcat/cpu-completable-future-limit$it/c400") })
        assertThat(run.suite.comparisons.map { it.name }).containsExactly(
            "cpu-steady-tomcat-p99: limit 50000", "cpu-steady-tomcat-p99: limit 100000", "cpu-steady-tomcat-p99: limit 200000", "cpu-steady-tomcat-p99: limit 300000")
        val first = run.suite.comparisons.first()
        assertThat(first.a).isEqualTo("tomcat/cpu-completable-future-limit50000/c400")
        assertThat(first.b).isEqualTo("tomcat/cpu-direct-limit50000/c400")
        assertThat(first.figure).isEqualTo("p99")
        assertThat(first.threshold).isEqualTo(0.1)
        assertThat(run.acrossRuns).isEmpty()
        assertThat(run.measuredOnly).isEmpty()

        // the narrowed suite plans those cells and no other, every process of each (three, a window each)
        val cells = FindingsPlanner.cells(run.suite, 1.0, null, null).cells
        assertThat(cells).hasSize(8 * 3)
        assertThat(cells.map { it.endpoint.path }.distinct()).containsExactlyInAnyOrderElementsOf(
            heavy.flatMap { listOf("/cpu/direct?limit=$it", "/cpu/completable-future?limit=$it") })
        assertThat(cells.map { it.app.name }.distinct()).containsExactly("tomcat")
        assertThat(cells.map { it.index }).containsExactlyElementsOf(1..cells.size)
    }

    @Test
    fun `the event-loop claims plan their own full-length run, every cell of it, and leave cpu-bound's tables unclaimed`() {
        val run = plan("cpu-event-loop", "cpu-webflux-offload").runs.single()
        assertThat(run.run).isEqualTo("cpu-bound-event-loop")
        assertThat(run.configs).containsExactlyInAnyOrderElementsOf(
            heavy.flatMap { listOf("tomcat/cpu-direct-limit$it/c400", "webflux/cpu-direct-limit$it/c400", "webflux/cpu-mono-parallel-limit$it/c400") })
        assertThat(run.driven.map { it.name }).containsExactlyInAnyOrderElementsOf(
            heavy.flatMap { listOf("cpu-steady-webflux-vs-tomcat: limit $it", "cpu-steady-webflux-parallel: limit $it") })
        assertThat(FindingsPlanner.cells(run.suite, 1.0, null, null).cells).hasSize(12 * 3)
        // the article's whole tables in cpu-bound stay, claiming nothing
        val old = claims.comparisons.filter { it.id in setOf("cpu-webflux-vs-tomcat", "cpu-webflux-parallel") }
        assertThat(old).hasSize(2).allMatch { c -> c.rows.all { it.claimId == null } }
    }

    @Test
    fun `cpu-offload plans the three offloading strategies and the request thread in their full-length run, and leaves cpu-bound's tables unclaimed`() {
        val run = plan("cpu-offload").runs.single()
        assertThat(run.run).isEqualTo("cpu-bound-offload")
        val strategies = listOf("direct", "completable-future", "dispatchers-default", "semaphore")
        assertThat(run.configs).containsExactlyInAnyOrderElementsOf(heavy.flatMap { l -> strategies.map { "tomcat/cpu-$it-limit$l/c400" } })
        assertThat(run.driven.map { it.name }).hasSize(12)
            .contains("cpu-steady-tomcat-pool: limit 300000", "cpu-steady-tomcat-dispatchers: limit 50000", "cpu-steady-tomcat-semaphore: limit 100000")
        assertThat(run.suite.comparisons).allMatch { it.figure == "throughput" && it.b.startsWith("tomcat/cpu-direct-") }
        assertThat(run.unmeasured).isEmpty()
        // the article's whole tables in cpu-bound (limits 100 to 300,000, one short repetition) stay, claiming nothing
        val old = claims.comparisons.filter { it.id in setOf("cpu-tomcat-pool", "cpu-tomcat-dispatchers", "cpu-tomcat-semaphore", "cpu-tomcat-p99") }
        assertThat(old).hasSize(4).allMatch { c -> c.rows.all { it.claimId == null } }
    }

    @Test
    fun `the cooperative claims plan suspend and the batches at both ends at the two limits they name, in their full-length run`() {
        val run = plan("cpu-coop", "cpu-coop-batch").runs.single()
        assertThat(run.run).isEqualTo("cpu-bound-coop")
        val limits = listOf(100000, 300000)
        val batches = listOf(100, 100000)
        assertThat(run.configs).containsExactlyInAnyOrderElementsOf(
            limits.map { "tomcat/cpu-suspend-limit$it/c400" } + limits.flatMap { l -> batches.map { "tomcat/cpu-coop-limit$l-batch$it/c400" } })
        assertThat(run.driven.map { it.name }).hasSize(6)
            .contains("cpu-steady-tomcat-coop: batch 100, limit 300000", "cpu-steady-tomcat-coop-batch: limit 100000")
        val batch = run.suite.comparisons.single { it.name == "cpu-steady-tomcat-coop-batch: limit 300000" }
        assertThat(batch.a).isEqualTo("tomcat/cpu-coop-limit300000-batch100000/c400")
        assertThat(batch.b).isEqualTo("tomcat/cpu-coop-limit300000-batch100/c400")
        // suspend against the request thread reads the same run (claim cpu-suspend), not asked for here
        assertThat(run.unmeasured.map { it.comparison.id }.distinct()).containsExactly("cpu-steady-tomcat-suspend")
        // the article's whole tables in cpu-bound (one short repetition) stay, claiming nothing
        val old = claims.comparisons.filter { it.id in setOf("cpu-tomcat-coop", "cpu-tomcat-coop-batch") }
        assertThat(old).hasSize(2).allMatch { c -> c.rows.all { it.claimId == null } }
    }

    @Test
    fun `cpu-pinned plans the request thread and both offloading strategies pinned to one CPU, and leaves cpu-bound-pinned's tables unclaimed`() {
        val run = plan("cpu-pinned").runs.single()
        assertThat(run.run).isEqualTo("cpu-bound-pinned-offload")
        val strategies = listOf("direct", "completable-future", "semaphore")
        assertThat(run.configs).containsExactlyInAnyOrderElementsOf(heavy.flatMap { l -> strategies.map { "tomcat/cpu-$it-limit$l/c400" } })
        assertThat(run.driven.map { it.name }).containsExactlyInAnyOrderElementsOf(
            heavy.flatMap { listOf("cpu-steady-pinned-tomcat-pool: limit $it", "cpu-steady-pinned-tomcat-semaphore: limit $it") })
        assertThat(run.suite.comparisons).allMatch { it.threshold == 0.1 && it.b.startsWith("tomcat/cpu-direct-") }
        assertThat(FindingsPlanner.cells(run.suite, 1.0, null, null).cells).hasSize(12 * 3)
        // the earlier pinned run (a quota on the pinned CPU, windows of the published 30 s) stays, claiming nothing
        val old = claims.comparisons.filter { it.id in setOf("cpu-pinned-tomcat-pool", "cpu-pinned-tomcat-semaphore", "cpu-quota-vs-pinned-direct") }
        assertThat(old).hasSize(3).allMatch { c -> c.rows.all { it.claimId == null } }
    }

    @Test
    fun `a run is planned in processes, three a configuration with restart app, each with the suite's windows, and three cells a configuration with restart cell`() {
        val fast = plan("downstream-fast").runs.single()
        val cells = FindingsPlanner.cells(fast.suite, 1.0, null, null).cells
        // restart: app, processes: 3, repetitions: 1: three processes a configuration, one window each
        assertThat(fast.suite.restart).isEqualTo(stackbench.runner.suite.Restart.APP)
        assertThat(cells.groupBy { it.configKey }.values).hasSize(8).allSatisfy { c ->
            assertThat(c.map { it.process }).containsExactly(1, 2, 3)
        }
        // more windows a process on request, more processes too; never fewer than three processes
        assertThat(FindingsPlanner.cells(fast.suite, 1.0, 2, 4).cells.filter { it.configKey == cells.first().configKey }.map { it.process })
            .containsExactly(1, 1, 2, 2, 3, 3, 4, 4)
        assertThatThrownBy { FindingsPlanner.cells(fast.suite, 1.0, null, 2) }.isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageContaining("--processes 2 cannot decide anything: a comparison needs 3 processes a side")
        // restart: cell: every repetition a process of its own, three at least
        val cold = plan("cpu-bound-cold").runs.single()
        assertThat(cold.suite.restart).isEqualTo(stackbench.runner.suite.Restart.CELL)
        assertThat(FindingsPlanner.cells(cold.suite, 1.0, null, null).cells.groupBy { it.configKey }.values).allSatisfy { assertThat(it.size).isGreaterThanOrEqualTo(3) }
        assertThatThrownBy { FindingsPlanner.cells(cold.suite, 1.0, 2, null) }.hasMessageContaining("with restart: cell each repetition is a process")
        // restart: cell with processes: 3 is three processes a configuration already, not three times three
        val three = cold.suite.copy(processes = 3, repetitions = 1)
        assertThat(FindingsPlanner.cells(three, 1.0, null, null).cells.groupBy { it.configKey }.values).allSatisfy { assertThat(it).hasSize(3) }
        assertThat(FindingsPlanner.cells(three, 1.0, 2, null).cells.groupBy { it.configKey }.values).allSatisfy { assertThat(it).hasSize(6) }
        assertThat(FindingsPlanner.cells(three, 1.0, 1, null).cells.groupBy { it.configKey }.values).allSatisfy { assertThat(it).hasSize(3) }
        // as the cooperative claims' suite plans it: three cells a configuration, each a process of its own
        val coop = plan("cpu-coop").runs.single()
        assertThat(coop.suite.restart).isEqualTo(stackbench.runner.suite.Restart.CELL)
        assertThat(FindingsPlanner.cells(coop.suite, 1.0, null, null).cells.groupBy { it.configKey }.values).hasSize(6).allSatisfy { assertThat(it).hasSize(3) }
    }

    @Test
    fun `a claim across two runs measures its cells in each and leaves its rows to findings`() {
        val p = plan("cpu-quota")
        assertThat(p.runs.map { it.run }).containsExactly("cpu-bound-offload", "cpu-bound-pinned-offload")
        for (run in p.runs) {
            assertThat(run.configs).containsExactlyElementsOf(heavy.map { "tomcat/cpu-direct-limit$it/c400" })
            assertThat(run.suite.comparisons).isEmpty()
            assertThat(run.acrossRuns.map { it.name }).containsExactlyElementsOf(heavy.map { "cpu-steady-quota-vs-pinned-direct: limit $it" })
        }
    }

    @Test
    fun `rows set against a published figure, or claiming nothing, are measured without a comparison`() {
        // the comparison's rows read two runs: the event loop as the article ran it (cold) and the rest after a warm-up
        val (blocking, cold) = plan("blocking-io").runs.also { assertThat(it.map { r -> r.run }).containsExactly("blocking-io", "blocking-io-cold") }
        assertThat(blocking.configs).hasSize(8).contains("tomcat/noop/c400", "webflux/io-cached-scheduler-delay500/c400")
        assertThat(cold.configs).containsExactly("webflux/io-blocking-delay500/c400")
        for (run in listOf(blocking, cold)) {
            assertThat(run.suite.comparisons).isEmpty()
            assertThat(run.measuredOnly.map { it.uncompared }).containsOnly("no side b: set against the published figure")
        }

        val fast = plan("io-downstream").runs.single()
        assertThat(fast.measuredOnly).isEmpty()
        assertThat(fast.configs).hasSize(8).contains("tomcat/downstream-sync-java-delay10/c100", "webflux/downstream-webclient-delay10/c800")
        assertThat(fast.driven).hasSize(4)
        val threads = plan("io-downstream-threads").runs.single()
        // the 1,000 ms rows are set against the article's 200 req/s
        assertThat(threads.measuredOnly.map { it.comparison.id }.distinct()).containsExactly("downstream-1000-threads")
        assertThat(threads.measuredOnly.map { it.uncompared }).containsOnly("no side b: set against the published figure")
        assertThat(threads.configs).hasSize(18).contains("tomcat/downstream-sync-java-delay100/c100", "webflux/downstream-webclient-delay500/c800",
            "tomcat/downstream-sync-java-delay1000/c400", "tomcat/downstream-sync-java-delay1000/c800")
        assertThat(threads.driven).hasSize(8)
        val clients = plan("io-downstream-clients").runs.single()
        assertThat(clients.measuredOnly.map { it.name }).contains("downstream-clients-800: client cf-apache")
        assertThat(clients.measuredOnly.map { it.uncompared }).containsOnly("claims nothing")
        assertThat(clients.configs).hasSize(17).contains("tomcat/downstream-cf-apache-delay500/c800", "webflux/downstream-cf-apache-delay500/c800",
            "tomcat-800-threads/downstream-sync-java-delay500/c800")
        // the remedies on Tomcat: the two asynchronous clients and the larger pool against the blocking call
        assertThat(clients.driven.map { it.name }).containsExactlyInAnyOrder(
            "downstream-tomcat-async: client cf-java", "downstream-tomcat-async: client cf-apache", "downstream-larger-pool: delay 500, users 800")
    }

    @Test
    fun `no id plans every claim's rows, one comparison each where both sides share a run`() {
        val p = plan()
        assertThat(p.runs.map { it.run }).containsExactlyInAnyOrder(
            "cpu-bound-event-loop", "cpu-bound-offload", "cpu-bound-coop", "cpu-bound-light", "cpu-bound-cold", "cpu-bound-pinned-offload", "blocking-io", "blocking-io-cold", "event-loop-completable-future", "servers-startup", "servers-peak", "io-downstream-threads", "io-downstream", "io-downstream-clients", "virtual-threads", "database", "jdk")
        val claimRows = claims.comparisons.flatMap { c -> c.rows.filter { it.claimId != null }.map { ClaimRow(c, it) } }
        val planned = p.runs.flatMap { it.driven + it.acrossRuns + it.measuredOnly }.distinct()
        assertThat(planned).containsExactlyInAnyOrderElementsOf(claimRows)
        // the startup rows compare Spring's startup time, as findings does
        assertThat(p.runs.single { it.run == "servers-startup" }.suite.comparisons.map { it.figure to it.threshold }).containsOnly("startup" to 0.04)
    }

    @Test
    fun `an unknown id is an error listing the claims and the runs`() {
        assertThatThrownBy { plan("cpu-offload", "nope") }.isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageStartingWith("no claim, comparison or run named 'nope' in docs/claims.yaml; claims: blocking-little, virtual-threads-tomcat,")
            .hasMessageContaining("runs: cpu-bound, cpu-bound-event-loop, cpu-bound-offload, cpu-bound-coop, cpu-bound-light, cpu-bound-cold, cpu-bound-pinned, cpu-bound-pinned-offload, blocking-io,")
    }

    @Test
    fun `a side that matches no cell of its run, or several, is an error naming the comparison, the side and the run`() {
        val bad = ClaimsParser.parse("""
            comparisons:
              - id: typo
                figure: throughput
                run: cpu-bound
                a: {app: tomcat, request: "/cpu/direct?limit=7"}
                b: {app: tomcat, request: "/cpu/direct?limit=100"}
                rows: [{label: seven, published: {a: 2, b: 1}}]
              - id: loose
                figure: throughput
                run: io-downstream
                rows: [{label: any users, a: {app: tomcat, request: "/downstream/webclient?delay=10"}}]
        """.trimIndent(), "c.yaml")
        assertThatThrownBy { FindingsPlanner.plan(bad, listOf("typo", "loose"), ::suite) }
            .hasMessageContaining("typo: seven: side a (cpu-bound: tomcat /cpu/direct?limit=7) matches no configuration of run cpu-bound (suite suites/cpu-bound.yaml)")
            .hasMessageContaining("loose: any users: side a (io-downstream: tomcat /downstream/webclient?delay=10) matches 4 configurations of run io-downstream")
            .hasMessageNotContaining("side b")
    }

    @Test
    fun `a side matches a planned cell exactly as findings matches the measured one`() {
        for (run in listOf("servers", "servers-peak", "io-downstream", "io-downstream-threads", "io-downstream-clients", "cpu-bound", "cpu-bound-event-loop")) {
            val cells = Planner.plan(suite(run), 1.0, 1, 1).cells
            val sides = claims.comparisons.flatMap { c -> c.rows.flatMap { listOfNotNull(it.a, it.b) } }.filter { it.run == run }
            for (side in sides) {
                assertThat(cells.filter { side.matches(it) }.map { it.key })
                    .describedAs(side.describe()).hasSize(1)
                    .isEqualTo(cells.filter { side.matches(Fixtures.cell(it)) }.map { it.key })
            }
        }
    }

    @Test
    fun `results record the narrowing, so that a resumed run plans the same cells and decides the same comparisons`() {
        val run = plan("servers-load").runs.single()
        val planned = Planner.plan(run.suite, 1.0, 3)
        val info = Fixtures.info().copy(only = run.configs.toList(), comparisons = run.suite.comparisons.map { ComparisonRecord.of(it) })
        val read = Json.mapper.readValue(Json.mapper.writeValueAsBytes(info), RunInfo::class.java)

        val resumed = read.focus(suite("servers-peak"))
        val replanned = Planner.plan(resumed, 1.0, 3)
        assertThat(replanned.cells.map { it.key }).containsExactlyElementsOf(planned.cells.map { it.key })
        assertThat(resumed.comparisons).containsExactlyElementsOf(run.suite.comparisons)
        assertThat(resumed.comparisons.map { it.figure }).containsOnly("throughput", "stability")
        // a run that was not narrowed resumes its whole suite
        assertThat(Fixtures.info().focus(suite("servers-peak"))).isEqualTo(suite("servers-peak"))
    }
}
