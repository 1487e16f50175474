package stackbench.runner.report

import stackbench.runner.ceiling.Ceilings
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import java.util.Locale

/**
 * A comparison's two sides as they ran: their effective settings side by side (the stack and server, Spring Boot, the
 * JDK, GC, heap and JVM flags, the request execution, every pool and server limit the app's `/info` reported, the
 * suite's properties, the CPU and memory limits, the endpoint and the load), the differences marked; and, for each
 * side, the limits that bound it in its windows. A comparison is of strategies only when what differs is the strategy:
 * a pool or a connection cap that holds one side at its ceiling decides the ratio instead. Pure.
 */
object SideBySide {
    data class Setting(val name: String, val a: String, val b: String) {
        val differs: Boolean get() = a != b
    }

    data class Sides(val settings: List<Setting>, val bindsA: List<String>, val bindsB: List<String>) {
        val differing: List<Setting> get() = settings.filter { it.differs }

        /** Every side's bound limits, each line led by its side's name. */
        fun binds(a: String, b: String): List<String> = bindsA.map { "$a: $it" } + bindsB.map { "$b: $it" }
    }

    /** At least this share of its Little's-law ceiling, a window ran against the limit that sets it. */
    const val BINDS_AT = 0.90

    /** Side a's cells against side b's. */
    fun of(a: List<CellResult>, b: List<CellResult>): Sides {
        val sa = settings(a)
        val sb = settings(b)
        val names = (sa.keys + sb.keys).distinct()
        return Sides(names.map { Setting(it, sa[it] ?: "–", sb[it] ?: "–") }, binds(a), binds(b))
    }

    /** One side's effective settings by name, read from its first cell that the app answered `/info` in (else its first). */
    fun settings(cells: List<CellResult>): Map<String, String> {
        val c = cells.firstOrNull { it.system.info != null } ?: cells.firstOrNull() ?: return emptyMap()
        val info = c.system.info
        fun text(field: String) = info?.get(field)?.takeIf { !it.isNull }?.asString()
        val out = LinkedHashMap<String, String>()
        out["stack"] = c.app.label
        text("server")?.let { out["server"] = listOfNotNull(it, text("serverVersion")).joinToString(" ") }
        (text("springBoot") ?: c.app.boot)?.let { out["Spring Boot"] = it }
        (c.system.runtime?.version ?: text("jdk"))?.let { out["JDK"] = it }
        (c.system.runtime?.gc ?: info?.get("garbageCollectors")?.values()?.joinToString { it.asString() }?.ifEmpty { null })?.let { out["GC"] = it }
        (c.profile.heapBytes ?: info?.get("heapMaxBytes")?.takeIf { it.isNumber }?.longValue())?.let { out["heap"] = mib(it) }
        out["JVM flags"] = c.app.jvmArgs.joinToString(" ").ifEmpty { "none" }
        out["request execution"] = text("requestExecution") ?: if (c.app.virtualThreads) "virtual threads" else "platform threads"
        info?.get("pools")?.values()?.forEach { p ->
            val size = p.get("size")?.takeIf { it.isNumber }?.intValue()?.toString() ?: "unbounded"
            out["pool ${p.path("name").asString("?")}"] = "$size ${p.path("kind").asString("")}".trim()
        }
        c.app.properties.toSortedMap().forEach { (k, v) -> out["property $k"] = v }
        c.app.systemProperties.toSortedMap().forEach { (k, v) -> out["-D$k"] = v }
        out["CPU"] = c.profile.cpuLimit + (c.profile.cpus?.let { " %.2f".format(Locale.ROOT, it) } ?: "") +
            (if (c.profile.cpuset.isEmpty()) "" else " on CPU ${c.profile.cpuset.joinToString(",")}")
        c.profile.memoryBytes?.let { out["memory"] = mib(it) }
        out["endpoint"] = c.endpoint.label
        out["load"] = "${c.load.driver} ${c.load.label}"
        return out
    }

    /**
     * The limits that bound [cells]' windows: each window whose throughput reached [BINDS_AT] of its Little's-law
     * ceiling where that ceiling is set by a limit below the load's connections (a pool or a server's connection cap,
     * not the client), in words with the share of the ceiling the windows reached; empty when none did.
     */
    fun binds(cells: List<CellResult>): List<String> {
        val bound = cells.filter { it.status == CellStatus.OK }.mapNotNull { c ->
            val ceiling = c.ceiling.bound ?: return@mapNotNull null
            val share = ceiling.efficiency ?: return@mapNotNull null
            val limit = ceiling.concurrency ?: return@mapNotNull null
            if (ceiling.law != Ceilings.LITTLE || limit >= c.load.connections || share < BINDS_AT) null
            else ceiling.explanation.substringBefore(" ÷ ") to share
        }
        return bound.groupBy({ it.first }, { it.second }).map { (what, shares) ->
            val range = if (pct(shares.min()) == pct(shares.max())) pct(shares.min()) else "${pct(shares.min())}-${pct(shares.max())}"
            "$what bound ${shares.size} window${if (shares.size == 1) "" else "s"} at $range of what it allows"
        }
    }

    private fun pct(x: Double) = "%.0f %%".format(Locale.ROOT, x * 100)

    private fun mib(bytes: Long) = "%d MiB".format(Locale.ROOT, bytes / (1L shl 20))
}
