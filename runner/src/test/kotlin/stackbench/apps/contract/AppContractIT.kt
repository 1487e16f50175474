package stackbench.apps.contract

import org.junit.jupiter.api.Order
import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.SoftAssertions
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.MethodSource
import stackbench.contract.AppInfo
import stackbench.runner.testing.Background
import stackbench.contract.IoAnswer
import stackbench.contract.Paths
import stackbench.contract.PrimesAnswer
import java.time.Duration

/**
 * Starts each of the six app jars as a real process, against a real downstream service and a real PostgreSQL
 * ([TestPostgres], one for the class), and checks every endpoint and strategy against the contract, `/db` included
 * (every db strategy reads, writes and waits in the query, through a pool of the size asked); then starts each again
 * with virtual threads on (the downstream service unreachable, no database) with nothing but a property, and with the
 * known-truth warm-up mode on, which it checks first ([WarmupTruthChecks]). Each check that needs a state of its own
 * shares a start with the others: a start of its own cost each stack another 12-17 s (the database checks had one,
 * 77 s for the six stacks in CI). One start at a time, in the background (testing/SharedMachine): at idle CPU priority,
 * beside a known truth; nothing here measures, each app gets its own ports, log and rows of the database, and the
 * timed checks wait for sleeps of hundreds of ms with their own margins.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Background
@Order(1)
@ResourceLock(SharedMachine.LANE_1)
class AppContractIT {
    private lateinit var downstream: JavaProcess
    private var downstreamPort = 0
    private var db: TestPostgres? = null
    private var dbMissing: String? = null

    fun stacks() = Stacks.SELECTED

    @BeforeAll
    fun startDownstream() {
        downstreamPort = JavaProcess.freePort()
        downstream = JavaProcess.start("downstream", Stacks.downstreamJar, listOf("-Xmx128m"), listOf("--port=$downstreamPort"))
        Http("http://127.0.0.1:$downstreamPort").use { http ->
            JavaProcess.awaitUp(downstream, Duration.ofSeconds(30)) { http.get("/health").status == 200 }
        }
        dbMissing = TestPostgres.unavailable()
        // as the runner's integration tests do: under CI a missing tool fails, elsewhere the database checks skip, saying why
        check(dbMissing == null || System.getenv("CI") != "true") { "AppContractIT needs PostgreSQL under CI: $dbMissing" }
        if (dbMissing == null) db = TestPostgres.start()
    }

    @AfterAll
    fun stopDownstream() {
        downstream.close()
        db?.close()
    }

    /** Where PostgreSQL is missing (never under CI), the platform starts run without it: this says so among the skips. */
    @Test
    fun `the database checks ran against PostgreSQL`() {
        assumeTrue(dbMissing == null) { "the /db checks of every stack were not run: $dbMissing" }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stacks")
    fun `every endpoint answers every strategy by the contract, the database's through a pool of the size asked`(stack: Stack) {
        val database = db?.appArgs()?.plus("--stackbench.db.pool=$DB_POOL") ?: emptyList()
        RunningApp.start(stack, "platform", listOf("--stackbench.downstream.base-url=http://127.0.0.1:$downstreamPort") + database).use { app ->
            assertThat(app.startedLine()).`as`("Spring's start-up line").isNotNull()
            assertThat(app.process.logTail(200)).`as`("the one stackbench line").contains("stackbench: stack=${stack.id} ")
            app.diagnosed { platformChecks(app, stack) }
        }
    }

    private fun platformChecks(app: RunningApp, stack: Stack) {
        val soft = SoftAssertions()
        val info = InfoChecks.check(soft, app.http, stack, virtualThreads = false)
        val processors = Runtime.getRuntime().availableProcessors()
        InfoChecks.pool(soft, info, "stackbench.cpu-pool", processors, "default")
        InfoChecks.pool(soft, info, "stackbench.semaphore", processors, "default")
        InfoChecks.pool(soft, info, "kotlinx.dispatchers-default", maxOf(2, processors), "default")
        InfoChecks.pool(soft, info, "kotlinx.dispatchers-io", maxOf(64, processors), "default")
        InfoChecks.pool(soft, info, "downstream.apache-async.connections", 2000, "runtime")
        when (stack.id) {
            "tomcat" -> InfoChecks.pool(soft, info, stack.requestPool, 200, "runtime")
            // what requests may use: the 200 threads less those leased to the acceptor(s) and selector(s), at least one each
            "jetty" -> {
                val leased = info?.pools?.firstOrNull { it.name == stack.requestPool }?.detail
                    ?.let { Regex("""(\d+) leased to""").find(it)?.groupValues?.get(1)?.toInt() }
                soft.assertThat(leased).`as`("threads leased by Jetty's acceptor and selector").isNotNull().isGreaterThanOrEqualTo(2)
                InfoChecks.pool(soft, info, stack.requestPool, 200 - (leased ?: 0), "runtime")
            }
            "webflux" -> InfoChecks.pool(soft, info, stack.requestPool, maxOf(processors, 4), "runtime")
        }
        EndpointChecks.noop(soft, app.http)
        EndpointChecks.cpu(soft, app.http)
        EndpointChecks.io(soft, app.http)
        EndpointChecks.downstream(soft, app.http)
        EndpointChecks.todo(soft, app.http)
        BadInputChecks.check(soft, app.http)
        db?.let { databaseChecks(soft, app, stack, info, it) }
        StatsChecks.everyEndpointHasWork(soft, app)
        StatsChecks.check(soft, app)
        StatsChecks.workCpu(soft, app, virtualThreads = false)
        if (stack.keepAliveDefect == null) EndpointChecks.keepAlive(soft, app.base)
        soft.assertAll()
    }

    /** `/db` by every strategy against [db], both pools of [DB_POOL] in /info, and the stats channel counting the work. */
    private fun databaseChecks(soft: SoftAssertions, app: RunningApp, stack: Stack, info: AppInfo?, db: TestPostgres) {
        InfoChecks.pool(soft, info, DatabaseChecks.HIKARI, DB_POOL, "runtime")
        InfoChecks.pool(soft, info, DatabaseChecks.R2DBC, DB_POOL, "runtime")
        DatabaseChecks.present(soft, app, db, DB_POOL, firstId = 100L * (Stacks.ALL.indexOf(stack) + 1))
        DatabaseChecks.work(soft, app.stats())
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stacks")
    fun `the warm-up truth, then virtual threads by property alone, and a downstream failure answers 502`(stack: Stack) {
        val unreachable = JavaProcess.freePort()
        // every pool size set by its property: the server's own, ours, and the libraries' system properties
        val pools = listOf(
            "--server.tomcat.threads.max=4", "--server.undertow.threads.worker=4", "--server.undertow.threads.io=3",
            "--server.jetty.threads.max=50", "--stackbench.cpu-pool.size=3", "--stackbench.semaphore.permits=5",
            "--stackbench.downstream.max-connections=2500",
        )
        val systemProperties = listOf("-Dreactor.netty.ioWorkerCount=2", "-Dkotlinx.coroutines.scheduler.core.pool.size=3")
        RunningApp.start(
            stack, "virtual",
            listOf("--spring.threads.virtual.enabled=true", "--stackbench.downstream.base-url=http://127.0.0.1:$unreachable") + pools +
                WarmupTruthChecks.args,
            systemProperties,
        ).use { app -> app.diagnosed { virtualChecks(app, stack) } }
    }

    private fun virtualChecks(app: RunningApp, stack: Stack) {
        val soft = SoftAssertions()
        // first, before any other I/O request starts its clock; it returns after the truth's end, when I/O costs nothing extra
        val truth = WarmupTruthChecks.check(soft, app)
        val info = InfoChecks.check(soft, app.http, stack, virtualThreads = true, warmupTruth = truth)
        InfoChecks.pool(soft, info, "stackbench.cpu-pool", 3, "property")
        InfoChecks.pool(soft, info, "stackbench.semaphore", 5, "property")
        InfoChecks.pool(soft, info, "kotlinx.dispatchers-default", 3, "property")
        InfoChecks.pool(soft, info, "downstream.webclient.event-loops", 2, "property")
        for (client in listOf("apache-async", "webclient", "rest-client")) {
            InfoChecks.pool(soft, info, "downstream.$client.connections", 2500, "runtime")
        }
        when (stack.id) {
            "tomcat" -> InfoChecks.pool(soft, info, "tomcat.threads", null, "runtime") // virtual: unbounded
            "jetty" -> InfoChecks.pool(soft, info, "jetty.threads", 50, "runtime") // virtual, and still bounded
            "undertow" -> {
                InfoChecks.pool(soft, info, "undertow.servlet-executor", null, "runtime")
                InfoChecks.pool(soft, info, "undertow.io-threads", 3, "runtime")
                InfoChecks.pool(soft, info, "undertow.worker-threads", 4, "runtime")
            }
            "webflux" -> InfoChecks.pool(soft, info, "netty.event-loops", 2, "runtime")
        }
        val blocking = app.http.get("/io/blocking?delay=100")
        soft.assertThat(blocking.status).`as`("blocking I/O: %s", blocking).isEqualTo(200)
        if (blocking.status == 200) soft.assertThat(blocking.json<IoAnswer>()).isEqualTo(IoAnswer("blocking", 100))
        val cpu = app.http.get("/cpu/direct?limit=10000")
        soft.assertThat(cpu.status).`as`("cpu: %s", cpu).isEqualTo(200)
        if (cpu.status == 200) soft.assertThat(cpu.json<PrimesAnswer>()).isEqualTo(PrimesAnswer(10000, 1229))
        if (stack.id == "tomcat" || stack.id == "undertow") {
            // 16 requests sleeping 300 ms at once, with a platform pool of 4: only virtual threads finish in one round
            val started = System.nanoTime()
            val answers = app.http.getAll(List(16) { "/io/blocking?delay=300" })
            val tookMs = (System.nanoTime() - started) / 1_000_000
            soft.assertThat(answers.map { it.status }).containsOnly(200)
            soft.assertThat(tookMs).`as`("16 x 300 ms with 4 platform threads would take 1,200 ms").isLessThan(1_100)
        }
        EndpointChecks.todo(soft, app.http)
        StatsChecks.workCpu(soft, app, virtualThreads = true)
        EndpointChecks.downstreamDown(soft, app.http)
        DatabaseChecks.absent(soft, app.http, info)
        soft.assertThat(app.http.get(Paths.NOOP).body).isEqualTo(Paths.NOOP_BODY)
        soft.assertAll()
    }

    private companion object {
        const val DB_POOL = 4
    }
}
