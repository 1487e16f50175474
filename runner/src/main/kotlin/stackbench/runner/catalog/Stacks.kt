package stackbench.runner.catalog

import java.nio.file.Path

/** The programming model a stack serves requests with. */
enum class WebModel { SERVLET, REACTIVE }

/** The Spring Boot lines the lab builds apps on. */
/** A Spring Boot line the lab builds its apps on; [minJdk]: the oldest JDK its jars run on (the bytecode they are built for, `java.release` in the poms). */
enum class BootLine(val id: String, val minJdk: Int) {
    BOOT_4_1("4.1", 21),
    BOOT_3_5("3.5", 17);

    companion object {
        fun byId(id: String): BootLine? = entries.firstOrNull { it.id == id }
    }
}

/**
 * A built-in system under test: a server stack on a Spring Boot line, and the jar that the build makes for it (a
 * path relative to the project root). The list is the contract's ([stackbench.contract.BuiltinApps], one file that the
 * contract tests and the launcher read too), with the pool each stack's blocking request holds: a stack is its
 * module and one line there.
 */
class Stack private constructor(
    val id: String, val boot: BootLine, val model: WebModel, val jar: String, val server: String,
    private val platformPool: RequestPool, private val virtualPool: RequestPool,
) {
    /**
     * The pool a blocking handler waits on: the server's request threads (bounded or not, as `/info` reports it),
     * WebFlux's event loops, or none (a virtual thread of its own), from the stack's line of the list. The ceilings'
     * Little's law counts it.
     */
    fun requestPool(virtualThreads: Boolean): RequestPool = if (virtualThreads) virtualPool else platformPool

    /** How results and plans name it: `tomcat`, or `tomcat@3.5` off the default line. */
    val label: String get() = if (boot == defaultLine(id)) id else "$id@${boot.id}"

    fun jarPath(home: Path): Path = home.resolve(jar)

    override fun toString() = label
    override fun equals(other: Any?) = other is Stack && other.id == id && other.boot == boot
    override fun hashCode() = id.hashCode() * 31 + boot.hashCode()

    companion object {
        /** Every built-in stack, in the contract list's order. */
        val entries: List<Stack> = stackbench.contract.BuiltinApps.ALL.map { e ->
            Stack(e.id, BootLine.byId(e.boot) ?: error("${stackbench.contract.BuiltinApps.RESOURCE}: ${e.id} names Boot line ${e.boot}, not one of ${BootLine.entries.map { it.id }}"),
                WebModel.valueOf(e.model.uppercase()), e.jar, e.server, RequestPool(e.pool, e.poolUnits), RequestPool(e.virtualPool, e.virtualPoolUnits))
        }

        val ids: List<String> = entries.map { it.id }.distinct()

        /** The line a stack id means when the suite names no line: 4.1, but for Undertow, which only 3.5 has. */
        fun defaultLine(id: String): BootLine? = entries.filter { it.id == id }.map { it.boot }.minByOrNull { it.ordinal }

        fun find(id: String, boot: BootLine?): Stack? {
            val line = boot ?: defaultLine(id) ?: return null
            return entries.firstOrNull { it.id == id && it.boot == line }
        }

        fun linesOf(id: String): List<BootLine> = entries.filter { it.id == id }.map { it.boot }

        private fun of(id: String, boot: BootLine) = find(id, boot) ?: error("the built-in list has no $id on Boot ${boot.id}")

        // handles for code and tests that name one stack; the list itself is the contract's file

        val TOMCAT = of("tomcat", BootLine.BOOT_4_1)
        val JETTY = of("jetty", BootLine.BOOT_4_1)
        val WEBFLUX = of("webflux", BootLine.BOOT_4_1)
        val TOMCAT_BOOT3 = of("tomcat", BootLine.BOOT_3_5)
        val UNDERTOW = of("undertow", BootLine.BOOT_3_5)
        val WEBFLUX_BOOT3 = of("webflux", BootLine.BOOT_3_5)
    }
}

/** A pool of the app's `/info` that a request holds while it waits ([pool] null: none, it has a thread of its own), and what its units are. */
data class RequestPool(val pool: String?, val what: String)

/** The non-blocking delay service that `/downstream/...` endpoints call. */
object DownstreamJar {
    const val PATH = "apps/downstream/target/downstream.jar"
}
