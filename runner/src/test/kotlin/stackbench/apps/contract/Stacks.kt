package stackbench.apps.contract

import stackbench.contract.BuiltinApps
import java.nio.file.Path
import java.nio.file.Paths

/** An app jar under test (an entry of the lab's one list, [BuiltinApps]) and what its /info must say. */
data class Stack(
    val id: String,
    val boot: String,
    val model: String,
    val server: String,
    val serverVersion: String,
    val framework: String,
    val requestPool: String,
    /**
     * Null when HTTP/1.1 keep-alive works. Otherwise the known defect, and the tests open a connection per request
     * (`Connection: close`) so that they check the contract, not the defect.
     */
    val keepAliveDefect: String? = null,
    /** The jar, relative to the project root, as the list names it. */
    val jarPath: String = "",
) {
    val bootLine: String get() = boot.substringBeforeLast('.')
    val jar: Path get() = Stacks.appsDir.resolve("..").resolve(jarPath).normalize()
    val servlet: Boolean get() = model == "servlet"

    override fun toString() = "$id (Boot $bootLine)"
}

/** What /info must say of one stack on one Spring Boot line: the contract tests' own facts, by list entry. */
private data class Expected(val boot: String, val server: String, val serverVersion: String, val framework: String, val keepAliveDefect: String? = null)

object Stacks {
    val appsDir: Path = Paths.get(System.getProperty("stackbench.apps.dir", "..")).toAbsolutePath().normalize()
    val downstreamJar: Path = appsDir.resolve("downstream/target/downstream.jar")

    /** `-Dstackbench.test.stacks=webflux-4.1,tomcat-3.5` runs those only; all by default. */
    val SELECTED: List<Stack> get() {
        val wanted = System.getProperty("stackbench.test.stacks")?.split(',')?.map { it.trim() }?.filter { it.isNotEmpty() }
        return if (wanted.isNullOrEmpty()) ALL else ALL.filter { "${it.id}-${it.bootLine}" in wanted }
    }

    /** Reactor Netty 1.3.7 (Boot 4.1.1) and 1.2.18 (Boot 3.5.16), the versions the Boot BOMs manage. */
    private const val REACTOR_NETTY_4361 = "reactor-netty#4361: a keep-alive connection stops reading when a request " +
        "queued behind an asynchronously answered one is answered synchronously (fixed in Reactor Netty 1.3.8)"

    /** The facts each entry of the list must show, by `id@line`; a stack added to the list without them fails here. */
    private val EXPECTED = mapOf(
        "tomcat@4.1" to Expected("4.1.1", "Apache Tomcat", "11.0.", "7.0."),
        "jetty@4.1" to Expected("4.1.1", "Eclipse Jetty", "12.1.", "7.0."),
        "webflux@4.1" to Expected("4.1.1", "Reactor Netty", "1.3.", "7.0.", REACTOR_NETTY_4361),
        "tomcat@3.5" to Expected("3.5.16", "Apache Tomcat", "10.1.", "6.2."),
        "undertow@3.5" to Expected("3.5.16", "Undertow", "2.3.", "6.2."),
        "webflux@3.5" to Expected("3.5.16", "Reactor Netty", "1.2.", "6.2.", REACTOR_NETTY_4361),
    )

    val ALL: List<Stack> = BuiltinApps.ALL.map { e ->
        val x = EXPECTED["${e.id}@${e.boot}"] ?: error("${BuiltinApps.RESOURCE} lists ${e.id} on Boot ${e.boot}: say in Stacks.EXPECTED what its /info must show")
        Stack(e.id, x.boot, e.model, x.server, x.serverVersion, x.framework, e.pool ?: error("${BuiltinApps.RESOURCE}: ${e.id} on Boot ${e.boot} has no pool"), x.keepAliveDefect, e.jar)
    }
}
