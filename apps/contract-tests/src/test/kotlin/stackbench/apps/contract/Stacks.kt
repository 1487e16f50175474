package stackbench.apps.contract

import java.nio.file.Path
import java.nio.file.Paths

/** An app jar under test and what its /info must say. */
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
) {
    val bootLine: String get() = boot.substringBeforeLast('.')
    val jar: Path get() = Stacks.appsDir.resolve("boot$bootLine4or3/$id/target/app-$id-boot$bootLine4or3.jar")
    private val bootLine4or3: String get() = boot.substringBefore('.')
    val servlet: Boolean get() = model == "servlet"

    override fun toString() = "$id (Boot $bootLine)"
}

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

    val ALL = listOf(
        Stack("tomcat", "4.1.1", "servlet", "Apache Tomcat", "11.0.", "7.0.", "tomcat.threads"),
        Stack("jetty", "4.1.1", "servlet", "Eclipse Jetty", "12.1.", "7.0.", "jetty.threads"),
        Stack("webflux", "4.1.1", "reactive", "Reactor Netty", "1.3.", "7.0.", "netty.event-loops",
            keepAliveDefect = REACTOR_NETTY_4361),
        Stack("tomcat", "3.5.16", "servlet", "Apache Tomcat", "10.1.", "6.2.", "tomcat.threads"),
        Stack("undertow", "3.5.16", "servlet", "Undertow", "2.3.", "6.2.", "undertow.worker-threads"),
        Stack("webflux", "3.5.16", "reactive", "Reactor Netty", "1.2.", "6.2.", "netty.event-loops",
            keepAliveDefect = REACTOR_NETTY_4361),
    )
}
