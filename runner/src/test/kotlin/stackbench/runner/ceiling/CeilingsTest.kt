package stackbench.runner.ceiling

import stackbench.runner.results.staged
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.results.AppRecord
import stackbench.runner.results.Ceiling
import stackbench.runner.results.EndpointRecord
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Flags
import stackbench.runner.results.IdleProbe
import stackbench.runner.results.JvmWindow
import stackbench.runner.results.Json
import stackbench.runner.results.LoadRecord
import stackbench.runner.results.PrimeRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser

class CeilingsTest {

    private fun app(stack: String, virtual: Boolean = false) = AppRecord("a", stack, "4.1", stack, virtual)
    private fun io(strategy: String, delay: Long = 100) = EndpointRecord("io", strategy, mapOf("delay" to delay), "GET", "/io/$strategy", "io")
    private fun closed(connections: Int) = LoadRecord("oha", "closed", connections, null, 1000, 10_000, null, 5000, 1, "c$connections")
    private fun open(rate: Double, connections: Int = 10_000) = LoadRecord("oha", "open", connections, rate, 1000, 10_000, null, 5000, 1, "rate")
    private fun idle(medianMs: Double, cpuMs: Double? = null) = IdleProbe(10, medianMs, medianMs, cpuMs)

    private fun info(vararg pools: Pair<String, Int?>, kind: String = "threads") = Json.mapper.readTree(
        """{"pools":[${pools.joinToString(",") { (n, s) -> """{"name":"$n","size":$s,"kind":"$kind","source":"runtime","detail":""}""" }},
           {"name":"tomcat.max-connections","size":8192,"kind":"connections","source":"runtime","detail":""}]}""")

    private val tomcat = info("tomcat.threads" to 200)

    @Test
    fun `a declared endpoint's ceiling is its declared limit over a lone request, the connections when fewer, and none without a limit`() {
        fun http(limit: Int?) = EndpointRecord("http", "orders", emptyMap(), "GET", "/orders/7", "http-orders-id7", limit)
        val own = AppRecord("orders", "jar", null, "jar", false)
        val c = Ceilings.of(http(200), closed(400), own, 1.0, null, idle(50.0), Fixtures.load(3000.0))!!
        assertThat(c.law).isEqualTo("Little's law")
        assertThat(c.requestsPerSecond).isCloseTo(4000.0, within(1e-9))
        assertThat(c.explanation).isEqualTo("200 requests at once (the declared concurrency-limit) ÷ 50 ms per request (the fastest lone request) = 4,000 req/s")
        assertThat(Ceilings.of(http(200), closed(50), own, 1.0, null, idle(50.0), null)!!.requestsPerSecond).isCloseTo(1000.0, within(1e-9))
        assertThat(Ceilings.of(http(null), closed(50), own, 1.0, null, idle(50.0), null)).`as`("no limit declared: no ceiling claimed").isNull()
        assertThat(Ceilings.of(http(200), closed(50), own, 1.0, null, null, null)).`as`("no lone request timed").isNull()
    }

    @Test
    fun `a database call is bounded by the fewer of the threads that hold it and the pool's connections, R2DBC by its pool alone`() {
        fun db(strategy: String) = EndpointRecord("db", strategy, mapOf("id" to 7, "db-delay" to 50), "GET", "/db/$strategy", "db-$strategy")
        val pools = Json.mapper.readTree("""{"pools":[
            {"name":"tomcat.threads","size":200,"kind":"threads","source":"runtime","detail":""},
            {"name":"tomcat.max-connections","size":8192,"kind":"connections","source":"runtime","detail":""},
            {"name":"netty.event-loops","size":4,"kind":"event-loops","source":"runtime","detail":""},
            {"name":"reactor.bounded-elastic","size":10,"kind":"threads","source":"runtime","detail":""},
            {"name":"db.hikari.connections","size":10,"kind":"connections","source":"runtime","detail":""},
            {"name":"db.r2dbc.connections","size":8,"kind":"connections","source":"runtime","detail":""}]}""")
        // a lone request took 54 ms, but a connection is held only for the query: the db-delay, 50 ms, is the hold
        val platform = Ceilings.of(db("jdbc"), closed(100), app("tomcat"), 1.0, pools, idle(54.0), Fixtures.load(190.0))!!
        assertThat(platform.requestsPerSecond).`as`("200 threads, 10 connections: the pool binds").isCloseTo(200.0, within(1e-9))
        assertThat(platform.explanation).isEqualTo("10 database connections (db.hikari.connections) ÷ 50 ms per request (the db-delay, each query's least hold of its connection) = 200 req/s")
        assertThat(platform.efficiency).isCloseTo(0.95, within(1e-9))
        val virtual = Ceilings.of(db("jdbc"), closed(100), app("tomcat", virtual = true), 1.0, pools, idle(50.0), null)!!
        assertThat(virtual.requestsPerSecond).`as`("virtual threads do not help past the pool").isCloseTo(200.0, within(1e-9))
        val loop = Ceilings.of(db("jdbc"), closed(100), app("webflux"), 1.0, pools, idle(50.0), null)!!
        assertThat(loop.requestsPerSecond).`as`("JDBC on the event loop: 4 loops block").isCloseTo(80.0, within(1e-9))
        assertThat(loop.concurrency).isEqualTo(4)
        assertThat(Ceilings.of(db("r2dbc"), closed(100), app("webflux"), 1.0, pools, idle(50.0), null)!!.requestsPerSecond).isCloseTo(160.0, within(1e-9))
        assertThat(Ceilings.of(db("jdbc-offload"), closed(100), app("webflux"), 1.0, pools, idle(55.0), null)!!.requestsPerSecond).isCloseTo(200.0, within(1e-9))
        val noDelay = EndpointRecord("db", "jdbc", mapOf("id" to 7, "db-delay" to 0), "GET", "/db/jdbc", "db-jdbc")
        assertThat(Ceilings.of(noDelay, closed(100), app("tomcat"), 1.0, pools, idle(2.0), null)).`as`("no db-delay: no hold known, no ceiling").isNull()
        assertThat(Ceilings.of(db("jdbc"), closed(5), app("tomcat"), 1.0, pools, idle(50.0), null)!!.requestsPerSecond).`as`("fewer connections than the pool").isCloseTo(100.0, within(1e-9))
        assertThat(Ceilings.of(db("spanner"), closed(100), app("tomcat"), 1.0, pools, idle(50.0), null)).`as`("an unknown strategy: no ceiling").isNull()
    }

    @Test
    fun `tomcat blocking is bounded by its 200 request threads`() {
        val c = Ceilings.of(io("blocking"), closed(400), app("tomcat"), 1.0, tomcat, idle(100.0), Fixtures.load(1500.0))!!
        assertThat(c.law).isEqualTo("Little's law")
        assertThat(c.requestsPerSecond).isCloseTo(2000.0, within(1e-9))
        assertThat(c.efficiency).isCloseTo(0.75, within(1e-9))
        assertThat(c.explanation).isEqualTo("200 request threads (tomcat.threads) ÷ 100 ms per request (the fastest lone request) = 2,000 req/s")
        // the binding limit, in whose waves a closed load completes
        assertThat(c.concurrency).isEqualTo(200)
    }

    @Test
    fun `fewer connections than threads, the client is the limit`() {
        val c = Ceilings.of(io("blocking"), closed(50), app("tomcat"), 1.0, tomcat, idle(100.0), null)!!
        assertThat(c.requestsPerSecond).isCloseTo(500.0, within(1e-9))
        assertThat(c.efficiency).isNull()
        assertThat(c.explanation).startsWith("50 connections (closed model) ÷ 100 ms")
        assertThat(c.concurrency).isEqualTo(50)
    }

    @Test
    fun `virtual threads lift the thread cap, the connections are the limit`() {
        val virtual = info("tomcat.threads" to null, kind = "virtual threads")
        val c = Ceilings.of(io("blocking"), closed(400), app("tomcat", virtual = true), 1.0, virtual, idle(100.0), null)!!
        assertThat(c.requestsPerSecond).isCloseTo(4000.0, within(1e-9))
        assertThat(c.explanation).startsWith("400 connections (closed model)").contains("tomcat.threads is unbounded")
        // Tomcat's max connections still bounds
        val many = Ceilings.of(io("blocking"), closed(10_000), app("tomcat", virtual = true), 1.0, virtual, idle(100.0), null)!!
        assertThat(many.requestsPerSecond).isCloseTo(81_920.0, within(1e-9))
        assertThat(many.explanation).contains("server connections (tomcat.max-connections)")
    }

    @Test
    fun `jetty stays bounded with virtual threads, undertow does not`() {
        val jetty = info("jetty.threads" to 200, kind = "virtual threads")
        assertThat(Ceilings.of(io("blocking"), closed(400), app("jetty", virtual = true), 1.0, jetty, idle(100.0), null)!!.requestsPerSecond)
            .isCloseTo(2000.0, within(1e-9))
        val undertow = info("undertow.servlet-executor" to null, "undertow.worker-threads" to 16)
        assertThat(Ceilings.of(io("blocking"), closed(400), app("undertow", virtual = true), 1.0, undertow, idle(100.0), null)!!.requestsPerSecond)
            .isCloseTo(4000.0, within(1e-9))
        assertThat(Ceilings.of(io("blocking"), closed(400), app("undertow"), 1.0, undertow, idle(100.0), null)!!.explanation)
            .startsWith("16 worker threads (undertow.worker-threads)")
    }

    @Test
    fun `webflux blocking on one event loop serves one sleep at a time`() {
        val loops = info("netty.event-loops" to 1, kind = "event loops")
        val c = Ceilings.of(io("blocking"), closed(400), app("webflux"), 1.0, loops, idle(100.0), null)!!
        assertThat(c.requestsPerSecond).isCloseTo(10.0, within(1e-9))
        assertThat(c.explanation).isEqualTo("1 event loop (netty.event-loops) ÷ 100 ms per request (the fastest lone request) = 10 req/s")
    }

    @Test
    fun `bounded-elastic is bounded by its threads`() {
        val pools = info("tomcat.threads" to 200, "reactor.bounded-elastic" to 10)
        val c = Ceilings.of(io("bounded-elastic"), closed(400), app("tomcat"), 1.0, pools, idle(100.0), null)!!
        assertThat(c.requestsPerSecond).isCloseTo(100.0, within(1e-9))
        assertThat(c.explanation).startsWith("10 bounded-elastic threads (reactor.bounded-elastic)")
    }

    @Test
    fun `timers hold no thread`() {
        val c = Ceilings.of(io("suspend-delay"), closed(400), app("webflux"), 1.0, info("netty.event-loops" to 1), idle(100.0), null)!!
        assertThat(c.requestsPerSecond).isCloseTo(4000.0, within(1e-9))
        assertThat(c.explanation).contains("no thread is held")
    }

    @Test
    fun `a synchronous downstream client holds a request thread and a connection`() {
        val pools = info("tomcat.threads" to 200, "downstream.rest-client.connections" to 2000)
        val ep = EndpointRecord("downstream", "rest-client", mapOf("delay" to 100L), "GET", "/downstream/rest-client", "d")
        assertThat(Ceilings.of(ep, closed(400), app("tomcat"), 1.0, pools, idle(100.0), null)!!.requestsPerSecond).isCloseTo(2000.0, within(1e-9))
        val async = ep.copy(strategy = "webclient")
        val withWebclient = info("tomcat.threads" to 200, "downstream.webclient.connections" to 300)
        assertThat(Ceilings.of(async, closed(400), app("tomcat"), 1.0, withWebclient, idle(100.0), null)!!.explanation)
            .startsWith("300 downstream connections (downstream.webclient.connections)")
    }

    @Test
    fun `cpu work is bounded by the allotted CPUs over the work's CPU plus the exchange's`() {
        val cpu = EndpointRecord("cpu", "direct", mapOf("limit" to 100_000L), "GET", "/cpu/direct", "cpu")
        val c = Ceilings.of(cpu, closed(50), app("tomcat"), 1.0, tomcat, idle(3.0, cpuMs = 2.5), Fixtures.load(200.0), workCpuMs = 2.3, exchangeCpuMs = 0.2)!!
        assertThat(c.law).isEqualTo("CPU time")
        assertThat(c.requestsPerSecond).isCloseTo(400.0, within(1e-9))
        assertThat(c.efficiency).isCloseTo(0.5, within(1e-9))
        assertThat(c.explanation).isEqualTo("1 CPU allotted ÷ (2.3 ms of work + 0.2 ms per HTTP exchange) of CPU per request = 400 req/s")
        assertThat(Ceilings.of(cpu, closed(50), app("tomcat"), 2.0, null, null, null, workCpuMs = 3.5, exchangeCpuMs = 0.5)!!.requestsPerSecond).isCloseTo(500.0, within(1e-9))
    }

    @Test
    fun `a lone request's wall time is not its CPU cost - the idle probe alone gives no CPU ceiling`() {
        val cpu = EndpointRecord("cpu", "direct", mapOf("limit" to 100_000L), "GET", "/cpu/direct", "cpu")
        assertThat(Ceilings.of(cpu, closed(50), app("tomcat"), 1.0, tomcat, idle(3.0, cpuMs = 2.5), null)).isNull()
        // the work alone, without the exchange's cost (an app that was not primed), is not enough either
        assertThat(Ceilings.of(cpu, closed(50), app("tomcat"), 1.0, tomcat, idle(3.0), null, workCpuMs = 2.5)).isNull()
    }

    @Test
    fun `when both laws apply the lower binds`() {
        // 200 threads ÷ 100 ms = 2,000 req/s by Little's law; 1 CPU ÷ 1 ms of CPU per request = 1,000 req/s: the CPU binds
        val c = Ceilings.of(io("blocking"), closed(400), app("tomcat"), 1.0, tomcat, idle(100.0), null, workCpuMs = 0.05, exchangeCpuMs = 0.95)!!
        assertThat(c.law).isEqualTo("CPU time")
        assertThat(c.requestsPerSecond).isCloseTo(1000.0, within(1e-9))
        assertThat(c.concurrency).`as`("a CPU-bound load has no waves of a pool").isNull()
        val little = Ceilings.of(io("blocking"), closed(400), app("tomcat"), 1.0, tomcat, idle(100.0), null, workCpuMs = 0.05, exchangeCpuMs = 0.15)!!
        assertThat(little.law).isEqualTo("Little's law")
        assertThat(little.requestsPerSecond).isCloseTo(2000.0, within(1e-9))
    }

    @Test
    fun `an open model is capped by its offered rate`() {
        val c = Ceilings.of(io("blocking"), open(500.0), app("tomcat"), 1.0, tomcat, idle(100.0), null)!!
        assertThat(c.requestsPerSecond).isEqualTo(500.0)
        assertThat(c.explanation).startsWith("the offered rate, 500 req/s").contains("200 request threads (tomcat.threads)")
        val cpu = EndpointRecord("cpu", "direct", mapOf("limit" to 100_000L), "GET", "/cpu/direct", "cpu")
        assertThat(Ceilings.of(cpu, open(100.0), app("tomcat"), 1.0, null, null, null, workCpuMs = 2.3, exchangeCpuMs = 0.2)!!.requestsPerSecond).isEqualTo(100.0)
        // a rate above the ceiling does not raise it
        assertThat(Ceilings.of(io("blocking"), open(5000.0), app("tomcat"), 1.0, tomcat, idle(100.0), null)!!.requestsPerSecond)
            .isCloseTo(2000.0, within(1e-9))
    }

    @Test
    fun `missing inputs give no ceiling`() {
        val cpu = EndpointRecord("cpu", "direct", mapOf("limit" to 100_000L), "GET", "/cpu/direct", "cpu")
        assertThat(Ceilings.of(cpu, closed(50), app("tomcat"), 1.0, tomcat, null, null)).isNull()
        assertThat(Ceilings.of(io("blocking"), closed(400), app("tomcat"), 1.0, null, idle(100.0), null)).isNull()
        // the pool the request waits on is not reported
        assertThat(Ceilings.of(io("dispatchers-io"), closed(400), app("tomcat"), 1.0, tomcat, idle(100.0), null)).isNull()
        val noop = EndpointRecord("noop", null, emptyMap(), "GET", "/noop", "noop")
        assertThat(Ceilings.of(noop, closed(50), app("tomcat"), 1.0, tomcat, idle(0.4, cpuMs = 0.2), null)).isNull()
        assertThat(Ceilings.of(noop, closed(50), app("tomcat"), 1.0, tomcat, null, null, workCpuMs = 0.0, exchangeCpuMs = 0.2)!!.requestsPerSecond).isCloseTo(5000.0, within(1e-9))
    }

    @Test
    fun `without the idle probe the delay parameter is the time per request, and the explanation says so`() {
        val c = Ceilings.of(io("blocking"), closed(400), app("tomcat"), 1.0, tomcat, null, null)!!
        assertThat(c.requestsPerSecond).isCloseTo(2000.0, within(1e-9))
        assertThat(c.explanation).isEqualTo("200 request threads (tomcat.threads) ÷ 100 ms per request (the delay parameter) = 2,000 req/s")
        assertThat(Ceilings.of(io("blocking"), closed(400), app("tomcat"), 1.0, tomcat, idle(100.4), null)!!.explanation)
            .isEqualTo("200 request threads (tomcat.threads) ÷ 100.4 ms per request (the fastest lone request) = 1,992 req/s")
    }

    @Test
    fun `a thread holds its request for the fastest lone request's time, not the median a compiling JVM slowed`() {
        // the quick suite's platform cell: 25 threads, 100 ms sleeps; the probe's median 110.5 ms (the JIT still at
        // work), its fastest 104.6; the window measured 239.3 req/s
        val disturbed = IdleProbe(10, 110.476, 104.574, 25.5)
        val c = Ceilings.of(io("blocking"), closed(50), app("tomcat"), 1.0, info("tomcat.threads" to 25), disturbed, null)!!
        assertThat(c.requestsPerSecond).isCloseTo(25 * 1000 / 104.574, within(1e-9))
        assertThat(c.explanation).isEqualTo("25 request threads (tomcat.threads) ÷ 104.6 ms per request (the fastest lone request) = 239.1 req/s")
        assertThat(239.3 / c.requestsPerSecond).`as`("within the slack a ceiling-defect allows").isLessThan(1 + Flags.CEILING_SLACK)
        assertThat(239.3 / (25 * 1000 / 110.476)).`as`("what the median made of it").isGreaterThan(1 + Flags.CEILING_SLACK)
    }

    @Test
    fun `a CPU-time ceiling without the CPU it rests on is an earlier law's, and reads as none`() {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 100000}]", "t.yaml"))
        val base = Fixtures.cell(plan.cells.first(), throughput = 200.0)
        val earlier = Ceiling("CPU time", 268.1, "1 CPU allotted ÷ 3.73 ms per request (idle median) = 268.1 req/s", 8.59)
        assertThat(Ceilings.recorded(base.staged(ceiling = earlier))).isNull()
        val today = Ceiling("CPU time", 400.0, "1 CPU allotted ÷ (2.3 ms of work + 0.2 ms per HTTP exchange) of CPU per request = 400 req/s", 0.5)
        val measured = base.staged(ceiling = today, jvm = JvmWindow(workCpuMsPerRequest = 2.3),
            prime = PrimeRecord("/noop", 50, WarmupRecord(10.0, "steady", 9.0, null), httpCpuMsPerRequest = 0.2))
        assertThat(Ceilings.recorded(measured)).isEqualTo(today)
        // the work's CPU alone is not today's law either
        assertThat(Ceilings.recorded(measured.staged(prime = null))).isNull()
        // Little's law needs no CPU figure: its ceilings stand as recorded
        val little = Ceiling("Little's law", 2000.0, "200 request threads (tomcat.threads) ÷ 100 ms per request (the delay parameter) = 2,000 req/s", 0.9)
        assertThat(Ceilings.recorded(base.staged(ceiling = little))).isEqualTo(little)
        assertThat(Ceilings.recorded(base)).isNull()
    }
}
