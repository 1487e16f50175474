package stackbench.runner.ceiling

import stackbench.runner.catalog.RequestPool
import stackbench.runner.catalog.Stack
import stackbench.runner.results.AppRecord
import stackbench.runner.results.CellResult
import stackbench.runner.results.Ceiling
import stackbench.runner.results.EndpointRecord
import stackbench.runner.results.IdleProbe
import stackbench.runner.results.LoadRecord
import stackbench.runner.results.LoadResult
import tools.jackson.databind.JsonNode
import java.math.BigDecimal
import java.math.MathContext
import java.util.Locale

/**
 * The most a cell could serve, by one of two laws, from what the cell already recorded: its endpoint and load,
 * the app's `/info` pools, the idle probe and the profile's allotted CPUs. Pure: no I/O. Null whenever an input
 * the law needs is missing: a ceiling is never guessed.
 *
 * - **Little's law** (`io`, `downstream`, `db`): in a steady state, requests in flight = throughput × time per request,
 *   so at most N requests in flight give at most N / T per second. N is the smallest concurrency limit the
 *   request meets (the client's connections, the pool that holds it while it waits, the server's connection
 *   cap); T is the time per request with nothing queued (the idle probe's fastest request, else the `delay` parameter).
 *   It assumes the wait dominates: the CPU the requests need is not the limit.
 * - **CPU time** (every kind, when both costs were measured): the allotted CPUs give at most
 *   `allotted × 1000 / (work + exchange)` requests per second, where `work` is the CPU time of the request's work
 *   on the thread that ran it (the app's own counter over the measured window) and `exchange` the app's CPU per
 *   HTTP exchange, measured as its whole CPU per `/noop` answer at saturation when it was primed (GC, JIT and the
 *   server's own threads included). It assumes the exchange costs no more around real work than around none.
 *   A lone request's wall time is not its CPU cost, so the idle probe never enters this law.
 *
 * When both laws apply (`io`, `downstream`, `db`), the lower one binds. An open model is also capped by its offered rate.
 */
object Ceilings {
    /**
     * The endpoint kinds whose ceiling needs the time of a lone request (Little's law: their requests mostly wait);
     * the lab probes that time for these only ([stackbench.runner.cell.ProbeStep]).
     */
    val LONE_REQUEST_KINDS = setOf("io", "downstream", "db")

    /** What a lone-request ceiling's time per request is, in its explanation. */
    private const val LONE = "the fastest lone request"

    const val LITTLE = "Little's law"
    const val CPU_TIME = "CPU time"

    fun of(
        endpoint: EndpointRecord, load: LoadRecord, app: AppRecord, allottedCpus: Double,
        info: JsonNode?, idle: IdleProbe?, measured: LoadResult?,
        /** The CPU of the endpoint's work per request over the window, ms (the app's own counter). */
        workCpuMs: Double? = null,
        /** The app's CPU per HTTP exchange at saturation (its priming), ms. */
        exchangeCpuMs: Double? = null,
    ): Ceiling? {
        val cpu = cpuTime(load, allottedCpus, workCpuMs, exchangeCpuMs)
        val laws = when (endpoint.kind) {
            in LONE_REQUEST_KINDS -> listOfNotNull(little(endpoint, load, app, info, idle), cpu)
            // a declared endpoint: only the limit its suite declares, over its lone request's time; no CPU-time law (its work is unknown)
            "http" -> listOfNotNull(declared(endpoint, load, idle))
            else -> listOfNotNull(cpu)
        }
        val ceiling = laws.minByOrNull { it.requestsPerSecond } ?: return null
        return ceiling.copy(efficiency = measured?.let { it.throughput / ceiling.requestsPerSecond })
    }

    /**
     * The ceiling a cell recorded, if today's laws could have given it from what the cell recorded; null for one
     * that an earlier law gave. The CPU-time law once divided the CPUs by the idle probe's wall time per request,
     * which is no CPU cost (a cell of primes up to 1,000 read 2,816 % of such a ceiling); today it needs the
     * work's CPU over the window and the exchange's CPU at priming, so a CPU-time ceiling without both is that
     * earlier law's, and reports show none rather than its figure.
     */
    fun recorded(cell: CellResult): Ceiling? {
        val c = cell.ceiling.bound ?: return null
        val inputs = cell.window.jvm?.workCpuMsPerRequest != null && cell.start.prime?.httpCpuMsPerRequest != null
        return if (c.law == CPU_TIME && !inputs) null else c
    }

    /** A pool as `/info` reports it; [size] null = unbounded. */
    private data class Pool(val name: String, val size: Int?, val kind: String)

    private data class Limit(val n: Int, val what: String)

    private fun little(endpoint: EndpointRecord, load: LoadRecord, app: AppRecord, info: JsonNode?, idle: IdleProbe?): Ceiling? {
        val pools = info?.path("pools")?.takeIf { it.isArray }?.values()?.associate {
            val p = Pool(it.path("name").asString(""), it.get("size")?.takeIf { s -> s.isNumber }?.intValue(), it.path("kind").asString(""))
            p.name to p
        } ?: return null
        val (ms, timeSource) = holdTime(endpoint, idle) ?: return null
        if (ms <= 0) return null
        val holds = holds(endpoint, app) ?: return null

        val limits = mutableListOf<Limit>()
        limits += Limit(load.connections, if (load.model == "closed") "connections (closed model)" else "connections (the open model's cap)")
        val unbounded = mutableListOf<String>()
        for (h in holds) {
            if (h.pool == null) { unbounded += h.what; continue }
            val p = pools[h.pool] ?: return null
            if (p.size != null) limits += Limit(p.size, "${h.what} (${p.name})") else unbounded += "${p.name} is unbounded"
        }
        pools.values.filter { it.kind == "connections" && !it.name.startsWith("downstream.") && !it.name.startsWith("db.") && it.size != null }
            .forEach { limits += Limit(it.size!!, "server connections (${it.name})") }
        if (holds.isEmpty()) unbounded += "no thread is held while it waits"

        val limit = limits.filter { it.n > 0 }.minByOrNull { it.n } ?: return null
        val rps = limit.n * 1000.0 / ms
        val sentence = "${count(limit.n, limit.what)} ÷ ${num(ms)} ms per request ($timeSource) = ${rate(rps)} req/s" +
            unbounded.joinToString("") { "; $it" }
        return capped(LITTLE, rps, sentence, load).copy(concurrency = limit.n)
    }

    /**
     * How long each request holds the limit that binds it. A thread or a downstream connection is held for the whole
     * request: a lone request's time, the fastest of the idle probe's (else the `delay` asked for). Not their median:
     * the probe runs as the JIT may still compile, and a lone request it slowed read as a longer hold, so a ceiling lower
     * than the window measured; in the quick suite a probe whose median was 110.5 ms (its fastest 104.6, the other
     * process's median 105.9) put 25 threads' ceiling at 226 req/s, and the window's 239 req/s, 106 % of it, was
     * flagged `ceiling-defect` and left out of its comparison. The fastest request still includes the probe's own
     * connection, which no request thread holds, so the ceiling stays an estimate that errs low. A database connection is held for
     * the query alone, not for the HTTP exchange around it, so a database call's hold is its `db-delay` (pg_sleep, a
     * floor under the query's time): with the whole request's time instead, pool-bound cells at 50 ms measured 103-107 %
     * of such a "ceiling" (a lone request took 53-55 ms), and a ceiling must not be beaten. With no `db-delay` a
     * database call claims no ceiling.
     */
    private fun holdTime(endpoint: EndpointRecord, idle: IdleProbe?): Pair<Double, String>? = when (endpoint.kind) {
        "db" -> endpoint.params["db-delay"]?.toDouble()?.takeIf { it > 0 }?.let { it to "the db-delay, each query's least hold of its connection" }
        else -> idle?.minMs?.takeIf { it > 0 }?.let { it to LONE } ?: endpoint.params["delay"]?.toDouble()?.let { it to "the delay parameter" }
    }

    /** Little's law for a declared endpoint: the fewer of the connections and its declared `concurrency-limit`, over a lone request's time. */
    private fun declared(endpoint: EndpointRecord, load: LoadRecord, idle: IdleProbe?): Ceiling? {
        val declared = endpoint.concurrencyLimit ?: return null
        val ms = idle?.minMs?.takeIf { it > 0 } ?: return null
        val limit = if (load.connections in 1 until declared) Limit(load.connections, "connections") else Limit(declared, "requests at once (the declared concurrency-limit)")
        val rps = limit.n * 1000.0 / ms
        return capped(LITTLE, rps, "${count(limit.n, limit.what)} ÷ ${num(ms)} ms per request ($LONE) = ${rate(rps)} req/s", load).copy(concurrency = limit.n)
    }

    private fun cpuTime(load: LoadRecord, allottedCpus: Double, workMs: Double?, exchangeMs: Double?): Ceiling? {
        if (workMs == null || exchangeMs == null || workMs < 0 || exchangeMs <= 0 || allottedCpus <= 0) return null
        val ms = workMs + exchangeMs
        val rps = allottedCpus * 1000.0 / ms
        val cpus = if (allottedCpus == 1.0) "1 CPU" else "${num(allottedCpus)} CPUs"
        return capped(CPU_TIME, rps, "$cpus allotted ÷ (${num(workMs)} ms of work + ${num(exchangeMs)} ms per HTTP exchange) of CPU per request = ${rate(rps)} req/s", load)
    }

    /** An open model cannot be served faster than it offers. */
    private fun capped(law: String, rps: Double, sentence: String, load: LoadRecord): Ceiling {
        val offered = load.rate?.takeIf { load.model == "open" && it > 0 && it < rps }
            ?: return Ceiling(law, rps, sentence)
        return Ceiling(law, offered, "the offered rate, ${rate(offered)} req/s, is below what the law allows: $sentence")
    }

    /** Where a request of this endpoint waits, by stack and strategy (docs/apps.md); null for an unknown one. */
    private fun holds(endpoint: EndpointRecord, app: AppRecord): List<RequestPool>? {
        val request by lazy { requestThreads(app) }
        return when (endpoint.kind) {
            "io" -> when (endpoint.strategy) {
                "blocking" -> listOf(request ?: return null)
                "completable-future", "cached-scheduler" -> listOf(RequestPool("stackbench.io-pool", "threads"))
                "dispatchers-io" -> listOf(RequestPool("kotlinx.dispatchers-io", "Dispatchers.IO threads"))
                "bounded-elastic" -> listOf(RequestPool("reactor.bounded-elastic", "bounded-elastic threads"))
                "suspend-delay", "mono-delay" -> emptyList()
                else -> null
            }
            "downstream" -> when (endpoint.strategy) {
                "sync-java" -> listOf(request ?: return null, RequestPool("downstream.java-httpclient.connections", "downstream connections"))
                "cf-java", "mono-java" -> listOf(RequestPool("downstream.java-httpclient.connections", "downstream connections"))
                "cf-apache", "mono-apache" -> listOf(RequestPool("downstream.apache-async.connections", "downstream connections"))
                "webclient", "suspend-webclient" -> listOf(RequestPool("downstream.webclient.connections", "downstream connections"))
                "rest-client" -> listOf(request ?: return null, RequestPool("downstream.rest-client.connections", "downstream connections"))
                else -> null
            }
            // JDBC holds the thread that calls it and a pooled connection; R2DBC holds only its pooled connection
            "db" -> when (endpoint.strategy) {
                "jdbc" -> listOf(request ?: return null, RequestPool(DB_JDBC_POOL, "database connections"))
                "jdbc-offload" -> listOf(RequestPool("reactor.bounded-elastic", "bounded-elastic threads"), RequestPool(DB_JDBC_POOL, "database connections"))
                "r2dbc" -> listOf(RequestPool(DB_R2DBC_POOL, "database connections"))
                else -> null
            }
            else -> null
        }
    }

    /** The database pools as the apps' `/info` names them (apps/endpoints db/JdbcConfiguration, R2dbcConfiguration). */
    private const val DB_JDBC_POOL = "db.hikari.connections"
    private const val DB_R2DBC_POOL = "db.r2dbc.connections"

    /** The pool a blocking handler waits on, by the stack's own catalog entry; null for a stack this runner does not know. */
    private fun requestThreads(app: AppRecord): RequestPool? =
        Stack.entries.firstOrNull { it.id == app.stack }?.requestPool(app.virtualThreads)

    private fun count(n: Int, what: String) = "${String.format(Locale.US, "%,d", n)} " + if (n == 1) singular(what) else what

    /** "request threads (tomcat.threads)" → "request thread (tomcat.threads)". */
    private fun singular(what: String): String {
        val head = what.substringBefore(" (")
        return head.removeSuffix("s") + what.removePrefix(head)
    }

    /** Four significant digits, thousands separated: 100.4, 2.5, 0.3512, 1,992. */
    private fun num(x: Double): String {
        val bd = BigDecimal(x).round(MathContext(4)).stripTrailingZeros()
        return String.format(Locale.US, "%,.${bd.scale().coerceAtLeast(0)}f", bd)
    }

    private fun rate(x: Double) = if (x >= 1000) String.format(Locale.US, "%,.0f", x) else num(x)
}
