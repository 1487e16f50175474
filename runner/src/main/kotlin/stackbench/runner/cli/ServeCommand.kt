package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.multiple
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import stackbench.runner.catalog.BootLine
import stackbench.runner.catalog.DownstreamJar
import stackbench.runner.catalog.Stack
import java.nio.file.Files

class ServeCommand : CliktCommand(name = "serve") {
    override fun help(context: Context) = """
        Starts one app in the foreground, for a person to poke at (Ctrl-C stops it). APP is a stack id
        (tomcat, jetty, webflux, undertow) or `downstream`. Extra PROPERTY=VALUE pairs become Spring
        properties; -Dkey=value pairs become system properties.

        Example: ./stackbench serve tomcat --virtual-threads server.tomcat.threads.max=10
    """.trimIndent()

    private val app by argument("APP", help = "tomcat, jetty, webflux, undertow, or downstream")
    private val properties by argument("PROPERTY=VALUE", help = "Spring properties (or -Dname=value system properties)").multiple()
    private val virtualThreads by option("--virtual-threads", help = "run request work on virtual threads").flag()
    private val port by option("--port", help = "the port to listen on").wholeNumber(stackbench.runner.suite.Ranges.PORT).default(8080)
    private val boot by option("--boot", help = "the Spring Boot line: 4.1 or 3.5 (default 4.1; undertow: 3.5)")

    override fun run() {
        val command = mutableListOf(Home.java.toString())
        properties.filter { it.startsWith("-D") }.forEach { command += it }
        if (app == "downstream") {
            command += listOf("-jar", Home.path.resolve(DownstreamJar.PATH).toString(), "--port=$port")
        } else {
            val line = boot?.let { BootLine.byId(it) ?: throw BadInput("--boot '$it': use 4.1 or 3.5") }
            val stack = Stack.find(app, line) ?: throw BadInput("no app '$app'${boot?.let { " on Spring Boot $it" } ?: ""}; apps: ${Stack.ids.joinToString()}, downstream")
            val jar = stack.jarPath(Home.path)
            if (!Files.isRegularFile(jar)) throw BadInput("$jar is not built; run ./mvnw -q -B package -DskipTests")
            command += listOf("-jar", jar.toString(), "--server.port=$port", "--spring.threads.virtual.enabled=$virtualThreads")
            for (p in properties.filter { !it.startsWith("-D") }) {
                if (!p.contains('=')) throw BadInput("'$p' is not PROPERTY=VALUE")
                command += "--$p"
            }
        }
        println("stackbench: ${command.joinToString(" ")}")
        val process = ProcessBuilder(command).inheritIO().start()
        Runtime.getRuntime().addShutdownHook(Thread { if (process.isAlive) { process.destroy(); process.waitFor() } })
        throw ProgramResult(process.waitFor())
    }
}
