package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.MethodSource
import stackbench.contract.CpuStrategy
import stackbench.contract.DownstreamClient
import stackbench.contract.IoStrategy
import stackbench.runner.catalog.BootLine
import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.catalog.Stack
import stackbench.runner.plan.EndpointKind
import stackbench.runner.plan.LoadShape
import stackbench.runner.plan.Planner
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import kotlin.io.path.extension
import kotlin.io.path.isDirectory
import kotlin.io.path.listDirectoryEntries
import kotlin.io.path.name
import kotlin.io.path.readText

/**
 * Every suite shipped in suites/ parses and plans on a 2-CPU machine, and the ones that re-run the published
 * comparisons carry the articles' parameters (docs/suite-format.md, "Published comparisons").
 */
class PublishedSuitesTest {

    companion object {
        /** suites/ seen from the test's working directory: runner/ under Maven, the project root elsewhere. */
        private val dir: Path = listOf(Path.of("../suites"), Path.of("suites")).firstOrNull { it.isDirectory() }
            ?: error("no suites/ folder next to ${Path.of("").toAbsolutePath()}")

        @JvmStatic
        fun suiteFiles(): List<String> = dir.listDirectoryEntries("*.yaml").map { it.name }.sorted()

        private fun parse(file: String): Suite =
            SuiteParser(MachineFacts(2), home = dir).parse(dir.resolve(file).readText(), file) // a feed's file beside the suite
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("suiteFiles")
    fun `every suite parses and plans to at least one cell`(file: String) {
        val suite = parse(file)
        assertThat(suite.name).isEqualTo(file.removeSuffix(".yaml"))
        val plan = Planner.plan(suite, 1.0, null)
        // a capacity search (find: capacity) makes its cells as it runs; the plan holds the search
        assertThat(plan.cells.size + plan.searches.size).describedAs("cells of $file").isPositive()
        assertThat(plan.cells.map { it.key }).doesNotHaveDuplicates()
    }

    @Test
    fun `the published comparisons are all there`() {
        assertThat(suiteFiles()).contains(
            "cpu-bound.yaml", "cpu-bound-pinned.yaml", "cpu-bound-event-loop.yaml", "cpu-bound-offload.yaml", "cpu-bound-coop.yaml", "cpu-bound-light.yaml",
            "cpu-bound-pinned-offload.yaml", "blocking-io.yaml", "event-loop.yaml", "event-loop-completable-future.yaml", "servers.yaml",
            "servers-peak.yaml", "servers-startup.yaml", "io-downstream.yaml", "io-downstream-clients.yaml", "virtual-threads.yaml",
        )
        assertThat(suiteFiles().map { dir.resolve(it) }).allMatch { Files.isRegularFile(it) && it.extension == "yaml" }
    }

    private val primeLimits = listOf(100L, 1_000, 10_000, 50_000, 100_000, 200_000, 300_000)

    private fun checkCpuBound(suite: Suite) {
        assertThat(suite.apps.map { it.stack }).containsExactly(Stack.TOMCAT, Stack.WEBFLUX)
        val cpu = suite.endpoints.single() as EndpointSpec.Cpu
        assertThat(cpu.strategies).containsExactlyElementsOf(CpuStrategy.entries)
        assertThat(cpu.limits).containsExactlyElementsOf(primeLimits)
        assertThat(cpu.batches).containsExactly(100L, 1_000, 10_000, 100_000)
        // wrk --latency -t12 -c400 -d30s --timeout 30s
        assertThat(suite.load.settings.driver).isEqualTo(DriverCatalog.WRK)
        assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(400)))
        assertThat(suite.load.settings.threads).isEqualTo(12)
        assertThat(suite.load.settings.length).isEqualTo(LoadLength.Timed(Duration.ofSeconds(30)))
        assertThat(suite.load.settings.timeout).isEqualTo(Duration.ofSeconds(30))
        assertThat(suite.profile.cpus).isEqualTo(1.0)
        assertThat(suite.profile.memoryBytes).isEqualTo(1L shl 30)
        assertThat(suite.profile.heapPercent).isEqualTo(75)
        val plan = Planner.plan(suite, 1.0, null)
        // per app: 7 strategies x 7 limits + coop x 7 limits x 4 batches, every repetition
        assertThat(plan.cells).hasSize(2 * (7 * 7 + 7 * 4) * suite.repetitions)
    }

    @Test
    fun `cpu-bound has the article's seven limits, 400 connections and a quota only`() {
        val suite = parse("cpu-bound.yaml")
        checkCpuBound(suite)
        assertThat(suite.profile.cpuset).isEmpty()
        assertThat(suite.profile.mode).isEqualTo(CpuLimitMode.QUOTA)
    }

    @Test
    fun `cpu-bound-pinned is cpu-bound pinned to one core, cell for cell`() {
        val quota = parse("cpu-bound.yaml")
        val pinned = parse("cpu-bound-pinned.yaml")
        checkCpuBound(pinned)
        assertThat(pinned.profile.cpuset).containsExactly(1)
        assertThat(pinned.copy(name = quota.name, description = quota.description, source = quota.source, profile = quota.profile))
            .isEqualTo(quota)
        // the same cell keys, so `compare` matches every configuration
        assertThat(Planner.plan(pinned).cells.map { it.key }).containsExactlyElementsOf(Planner.plan(quota).cells.map { it.key })
    }

    @Test
    fun `blocking-io sleeps 500 ms on each stack's own strategies`() {
        val suite = parse("blocking-io.yaml")
        val io = suite.endpoints.filterIsInstance<EndpointSpec.Io>()
        assertThat(io.flatMap { it.delaysMs }.distinct()).containsExactly(500L)
        assertThat(io.single { it.onlyApps == listOf("tomcat") }.strategies)
            .containsExactly(IoStrategy.BLOCKING, IoStrategy.COMPLETABLE_FUTURE, IoStrategy.DISPATCHERS_IO)
        assertThat(io.single { it.onlyApps == listOf("webflux") }.strategies)
            .containsExactly(IoStrategy.BLOCKING, IoStrategy.BOUNDED_ELASTIC, IoStrategy.CACHED_SCHEDULER)
        assertThat(suite.load.settings.driver).isEqualTo(DriverCatalog.WRK)
        assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(400)))
        assertThat(suite.load.settings.timeout).isEqualTo(Duration.ofSeconds(30))
        val cells = Planner.plan(suite).cells.filter { it.endpoint.kind == EndpointKind.IO }
        assertThat(cells.filter { it.app.name == "tomcat" }.map { it.endpoint.strategy }.distinct())
            .containsExactlyInAnyOrder("blocking", "completable-future", "dispatchers-io")
        assertThat(cells.filter { it.app.name == "webflux" }.map { it.endpoint.strategy }.distinct())
            .containsExactlyInAnyOrder("blocking", "bounded-elastic", "cached-scheduler")
    }

    @Test
    fun `event-loop pits one Tomcat thread against one event loop`() {
        val suite = parse("event-loop.yaml")
        val tomcat = suite.apps.single { it.stack == Stack.TOMCAT }
        val webflux = suite.apps.single { it.stack == Stack.WEBFLUX }
        assertThat(tomcat.properties).containsEntry("server.tomcat.threads.max", "1")
        assertThat(webflux.systemProperties).containsEntry("reactor.netty.ioWorkerCount", "1")
        val io = suite.endpoints.single() as EndpointSpec.Io
        assertThat(io.delaysMs).containsExactly(100L)
        assertThat(io.strategies).containsExactly(IoStrategy.BOUNDED_ELASTIC)
        assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(100)))
        assertThat(suite.load.settings.length).isEqualTo(LoadLength.Timed(Duration.ofMinutes(10)))
    }

    @Test
    fun `event-loop-completable-future hands the wait to the article's pool, as event-loop is set up`() {
        val suite = parse("event-loop-completable-future.yaml")
        val io = suite.endpoints.single() as EndpointSpec.Io
        assertThat(io.strategies).containsExactly(IoStrategy.COMPLETABLE_FUTURE)
        val elastic = parse("event-loop.yaml")
        assertThat(io.delaysMs).isEqualTo((elastic.endpoints.single() as EndpointSpec.Io).delaysMs)
        assertThat(suite.profile).isEqualTo(elastic.profile)
        assertThat(suite.apps).isEqualTo(elastic.apps)
        assertThat(suite.load).isEqualTo(elastic.load)
        assertThat(suite.repetitions).isEqualTo(elastic.repetitions)
    }

    @Test
    fun `servers runs GET and POST todo on three Boot 3_5 servers at rising open-model rates`() {
        val suite = parse("servers.yaml")
        assertThat(suite.apps.map { it.stack }).containsExactly(Stack.TOMCAT_BOOT3, Stack.UNDERTOW, Stack.WEBFLUX_BOOT3)
        assertThat(suite.apps).allMatch { it.stack?.boot == BootLine.BOOT_3_5 && it.properties.isEmpty() }
        assertThat((suite.endpoints.single() as EndpointSpec.Todo).methods).containsExactly(TodoMethod.GET, TodoMethod.POST)
        val rates = (suite.load.model as LoadModel.Open).rates
        assertThat(rates).isSorted.hasSizeGreaterThanOrEqualTo(4)
        assertThat(rates.first()).isBetween(100.0, 400.0)
        assertThat(rates.last()).isBetween(1500.0, 2500.0)
        assertThat(suite.restart).isEqualTo(Restart.CELL)
        assertThat(Planner.plan(suite).cells.map { it.load.shape }).allMatch { it is LoadShape.Open }
    }

    @Test
    fun `servers-peak is the servers ramp at its top two rates, set up alike`() {
        val ramp = parse("servers.yaml")
        val peak = parse("servers-peak.yaml")
        val rampRates = (ramp.load.model as LoadModel.Open).rates
        assertThat((peak.load.model as LoadModel.Open).rates).containsExactlyElementsOf(rampRates.takeLast(2))
        // the busiest cells of the ramp: a longer cap for the JIT, the rest alike
        assertThat(peak.load.settings.warmupMax).isEqualTo(Duration.ofSeconds(90))
        assertThat(peak.load.copy(model = ramp.load.model, settings = peak.load.settings.copy(warmupMax = ramp.load.settings.warmupMax))).isEqualTo(ramp.load)
        assertThat(peak.apps).isEqualTo(ramp.apps)
        // the article's VMs' memory and the JVM's default heap: 10,000 connections outgrew 1 GiB in full-length cells
        assertThat(peak.profile.copy(memoryBytes = ramp.profile.memoryBytes, heapPercent = ramp.profile.heapPercent)).isEqualTo(ramp.profile)
        assertThat(peak.profile.memoryBytes).isEqualTo(8L shl 30)
        assertThat(peak.endpoints).isEqualTo(ramp.endpoints)
        assertThat(peak.restart).isEqualTo(Restart.CELL)
        assertThat(peak.repetitions).isGreaterThanOrEqualTo(3)
        assertThat(Planner.plan(peak).cells).hasSize(3 * 2 * 2 * peak.repetitions)
    }

    @Test
    fun `servers-startup starts each server cold 150 times, with no round`() {
        val suite = parse("servers-startup.yaml")
        assertThat(suite.apps.map { it.stack }).containsExactly(Stack.TOMCAT_BOOT3, Stack.UNDERTOW, Stack.WEBFLUX_BOOT3)
        assertThat(suite.restart).isEqualTo(Restart.CELL)
        assertThat(suite.repetitions).isEqualTo(150)
        assertThat(suite.untilDecided).isEqualTo(Duration.ofSeconds(10))
        val cells = Planner.plan(suite).cells
        assertThat(cells.groupingBy { it.app.name }.eachCount()).containsOnly(
            org.assertj.core.api.Assertions.entry("tomcat", 150), org.assertj.core.api.Assertions.entry("undertow", 150),
            org.assertj.core.api.Assertions.entry("webflux", 150),
        )
    }

    @Test
    fun `cpu-bound-event-loop is cpu-bound's event-loop cells at the heavy limits, with windows that may grow and three processes a configuration`() {
        val quota = parse("cpu-bound.yaml")
        val suite = parse("cpu-bound-event-loop.yaml")
        assertThat(suite.apps).isEqualTo(quota.apps)
        val heavy = listOf(50_000L, 100_000, 200_000, 300_000)
        val (direct, parallel, variants) = suite.endpoints.map { it as EndpointSpec.Cpu }
        assertThat(direct.strategies).containsExactly(CpuStrategy.DIRECT)
        assertThat(direct.limits).containsExactlyElementsOf(heavy)
        assertThat(parallel.strategies).containsExactly(CpuStrategy.MONO_PARALLEL)
        assertThat(parallel.limits).containsExactlyElementsOf(heavy)
        // WebFlux's Dispatchers.Default and plain Mono at the two ends
        assertThat(variants.strategies).containsExactly(CpuStrategy.DISPATCHERS_DEFAULT, CpuStrategy.MONO)
        assertThat(variants.limits).containsExactly(100_000L, 300_000L)
        assertThat(variants.onlyApps).containsExactly("webflux")
        // Tomcat direct, WebFlux direct and Schedulers.parallel() at each limit, the two variants at two
        assertThat(checkFullLength(suite, quota)).hasSize((3 * heavy.size + 2 * 2) * suite.processes * suite.repetitions)
    }

    /**
     * A full-length suite of the CPU article's claims: some of [base]'s apps, its profile, and the published wrk
     * -t12 -c400 -d30s --timeout 30s, but a window that may grow to 4 minutes to hold 20 round trips and a warm-up of
     * up to 5, three processes a configuration (the unit of its comparisons), each cell a process of its own (the claims
     * set strategies of one app against each other, whose sides must not share a JVM); its cells are [base]'s, by key.
     * Returns its cells.
     */
    private fun checkFullLength(suite: Suite, base: Suite): List<stackbench.runner.plan.Cell> {
        assertThat(base.apps).containsAll(suite.apps)
        assertThat(suite.profile).isEqualTo(base.profile)
        assertThat(suite.load.settings.durationMax).isEqualTo(Duration.ofMinutes(4))
        assertThat(suite.load.settings.warmupMax).isEqualTo(Duration.ofMinutes(5))
        assertThat(suite.load.copy(settings = suite.load.settings.copy(durationMax = null, warmupMax = base.load.settings.warmupMax))).isEqualTo(base.load)
        assertThat(suite.restart).isEqualTo(Restart.CELL)
        assertThat(suite.processes).isGreaterThanOrEqualTo(3)
        assertThat(suite.untilDecided).describedAs("the rounds' budget, fixed before the run").isNotNull()
        val cells = Planner.plan(suite).cells
        assertThat(Planner.plan(base).cells.map { it.key }).containsAll(cells.map { it.key })
        return cells
    }

    @Test
    fun `the offloading claims' suites are cpu-bound's and cpu-bound-pinned's Tomcat cells at the heavy limits, at full length`() {
        val heavy = listOf(50_000L, 100_000, 200_000, 300_000)
        val quota = parse("cpu-bound-offload.yaml")
        assertThat(quota.apps.map { it.stack }).containsExactly(Stack.TOMCAT)
        val cpu = quota.endpoints.single() as EndpointSpec.Cpu
        assertThat(cpu.strategies).containsExactly(CpuStrategy.DIRECT, CpuStrategy.COMPLETABLE_FUTURE, CpuStrategy.DISPATCHERS_DEFAULT, CpuStrategy.SEMAPHORE)
        assertThat(cpu.limits).containsExactlyElementsOf(heavy)
        assertThat(checkFullLength(quota, parse("cpu-bound.yaml"))).hasSize(4 * heavy.size * quota.processes * quota.repetitions)

        val pinned = parse("cpu-bound-pinned-offload.yaml")
        val onCore = pinned.endpoints.single() as EndpointSpec.Cpu
        assertThat(onCore.strategies).containsExactly(CpuStrategy.DIRECT, CpuStrategy.COMPLETABLE_FUTURE, CpuStrategy.SEMAPHORE)
        assertThat(onCore.limits).containsExactlyElementsOf(heavy)
        assertThat(pinned.profile.cpuset).containsExactly(1)
        assertThat(checkFullLength(pinned, parse("cpu-bound-pinned.yaml"))).hasSize(3 * heavy.size * pinned.processes * pinned.repetitions)
        // the two differ only in the profile: the same cell keys, so the quota and the pinned core compare cell for cell
        assertThat(pinned.copy(name = quota.name, description = quota.description, source = quota.source, profile = quota.profile, untilDecided = quota.untilDecided,
            endpoints = quota.endpoints)).isEqualTo(quota)
    }

    @Test
    fun `cpu-bound-coop is cpu-bound's suspend and cooperative cells at the claims' two limits, every batch, at full length`() {
        val suite = parse("cpu-bound-coop.yaml")
        assertThat(suite.apps.map { it.stack }).containsExactly(Stack.TOMCAT)
        val (cpu, direct) = suite.endpoints.map { it as EndpointSpec.Cpu }
        assertThat(cpu.strategies).containsExactly(CpuStrategy.SUSPEND, CpuStrategy.COOP)
        assertThat(cpu.limits).containsExactly(100_000L, 300_000L)
        assertThat(cpu.batches).containsExactly(100L, 1_000, 10_000, 100_000)
        // the request thread, for suspend against the plain controller
        assertThat(direct.strategies).containsExactly(CpuStrategy.DIRECT)
        assertThat(direct.limits).containsExactly(100_000L, 300_000L)
        // suspend and direct once a limit, coop once a limit and batch
        assertThat(checkFullLength(suite, parse("cpu-bound.yaml"))).hasSize((2 + 4) * 2 * suite.processes * suite.repetitions)
    }

    @Test
    fun `cpu-bound-light is cpu-bound's Tomcat cells at the light limits, set up as cpu-bound, each cell a process`() {
        val base = parse("cpu-bound.yaml")
        val suite = parse("cpu-bound-light.yaml")
        assertThat(suite.apps.map { it.stack }).containsExactly(Stack.TOMCAT)
        assertThat(base.apps).containsAll(suite.apps)
        assertThat(suite.profile).isEqualTo(base.profile)
        assertThat(suite.load).isEqualTo(base.load)
        val cpu = suite.endpoints.single() as EndpointSpec.Cpu
        assertThat(cpu.strategies).containsExactly(CpuStrategy.DIRECT, CpuStrategy.SUSPEND, CpuStrategy.COMPLETABLE_FUTURE, CpuStrategy.DISPATCHERS_DEFAULT)
        assertThat(cpu.limits).containsExactly(100L, 1_000L)
        assertThat(suite.restart).isEqualTo(Restart.CELL)
        assertThat(suite.processes * suite.repetitions).isEqualTo(3)
        assertThat(suite.untilDecided).isNotNull()
        val cells = Planner.plan(suite).cells
        assertThat(cells).hasSize(4 * 2 * 3)
        assertThat(Planner.plan(base).cells.map { it.key }).containsAll(cells.map { it.key })
    }

    @Test
    fun `io-downstream's matrix is split by delay, the two halves set up alike`() {
        val fast = parse("io-downstream.yaml")
        val threads = parse("io-downstream-threads.yaml")
        for (suite in listOf(fast, threads)) {
            val downstream = suite.endpoints.first() as EndpointSpec.Downstream
            assertThat(downstream.clients).containsExactly(DownstreamClient.SYNC_JAVA, DownstreamClient.WEBCLIENT)
            assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(100, 200, 400, 800)))
            assertThat(suite.profile.cpuset).containsExactly(1)
        }
        assertThat((fast.endpoints.single() as EndpointSpec.Downstream).delaysMs).containsExactly(10L)
        assertThat((threads.endpoints.first() as EndpointSpec.Downstream).delaysMs).containsExactly(100L, 500L)
        // and the article's opening case: the blocking call on Tomcat at 1,000 ms
        val opening = threads.endpoints[1] as EndpointSpec.Downstream
        assertThat(opening.clients).containsExactly(DownstreamClient.SYNC_JAVA)
        assertThat(opening.delaysMs).containsExactly(1_000L)
        assertThat(opening.onlyApps).containsExactly("tomcat")
        assertThat(threads.endpoints).hasSize(2)
        assertThat(threads.apps).isEqualTo(fast.apps)
        // the 100 ms cells at 800 users are the busiest of their half: a 60 s cap, a fresh app per cell
        assertThat(threads.load.settings.warmupMax).isEqualTo(Duration.ofSeconds(60))
        assertThat(threads.restart).isEqualTo(Restart.CELL)
        // at 10 ms every cell keeps the one CPU busy for minutes: the JVM's default heap in the same 1 GiB, one
        // process per app so that the JIT's minutes (cap 600 s) are paid once, the rest alike
        assertThat(fast.profile).isEqualTo(threads.profile.copy(heapPercent = 25))
        assertThat(fast.restart).isEqualTo(Restart.APP)
        assertThat(fast.load.settings.warmupMax).isEqualTo(Duration.ofSeconds(600))
        assertThat(threads.load.copy(settings = threads.load.settings.copy(warmupMax = fast.load.settings.warmupMax))).isEqualTo(fast.load)
    }

    @Test
    fun `io-downstream-clients runs every client at 800 users and 500 ms, as io-downstream-threads is set up`() {
        val suite = parse("io-downstream-clients.yaml")
        val (downstream, pool) = suite.endpoints.map { it as EndpointSpec.Downstream }
        assertThat(downstream.clients).containsExactlyElementsOf(DownstreamClient.entries)
        assertThat(downstream.delaysMs).containsExactly(500L)
        assertThat(downstream.onlyApps).containsExactly("tomcat", "webflux")
        // the article's first remedy: the blocking call on 800 request threads
        assertThat(pool.clients).containsExactly(DownstreamClient.SYNC_JAVA)
        assertThat(pool.delaysMs).containsExactly(500L)
        assertThat(pool.onlyApps).containsExactly("tomcat-800-threads")
        assertThat(suite.apps.single { it.name == "tomcat-800-threads" }.properties).containsEntry("server.tomcat.threads.max", "800")
        assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(800)))
        val matrix = parse("io-downstream-threads.yaml")
        assertThat(suite.profile).isEqualTo(matrix.profile)
        assertThat(suite.apps.filter { it.name != "tomcat-800-threads" }).isEqualTo(matrix.apps)
        assertThat(suite.restart).isEqualTo(matrix.restart)
        assertThat(suite.load.copy(model = matrix.load.model, settings = suite.load.settings.copy(warmupMax = matrix.load.settings.warmupMax))).isEqualTo(matrix.load)
    }

    @Test
    fun `the quick suite drives a load generator that installs in seconds, not one that is compiled first`() {
        val suite = parse("quick.yaml")
        assertThat(suite.load.settings.driver.install).isInstanceOf(stackbench.runner.catalog.Install.Apt::class.java)
        // twice the connections of the request threads, so the platform threads' pool binds: 250 against 500 req/s
        assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(50)))
        assertThat(suite.apps.map { it.properties["server.tomcat.threads.max"] }).containsOnly("25")
        // it measures no start-up, and one look decides it: docs/methodology.md
        assertThat(suite.profile.startOnAllCpus).isTrue()
        assertThat(suite.untilDecided).isNull()
    }

    @Test
    fun `virtual-threads sends 200 requests over 30 connections with 1 s and 2 s sleeps`() {
        val suite = parse("virtual-threads.yaml")
        assertThat(suite.load.settings.length).isEqualTo(LoadLength.Counted(200))
        assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(30)))
        assertThat(suite.load.settings.driver).isEqualTo(DriverCatalog.OHA)
        val io = suite.endpoints.single() as EndpointSpec.Io
        assertThat(io.strategies).containsExactly(IoStrategy.BLOCKING)
        assertThat(io.delaysMs).containsExactlyInAnyOrder(1_000L, 2_000L)
        for (stack in listOf(Stack.TOMCAT, Stack.JETTY)) {
            val apps = suite.apps.filter { it.stack == stack }
            assertThat(apps.map { it.virtualThreads }).describedAs(stack.id).containsExactlyInAnyOrder(false, true)
            assertThat(apps).allMatch { it.properties["server.${stack.id}.threads.max"] == "10" }
        }
    }
}
