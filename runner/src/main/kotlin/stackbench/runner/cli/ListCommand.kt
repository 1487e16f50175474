package stackbench.runner.cli

import stackbench.runner.catalog.SearchPath
import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import stackbench.contract.CpuStrategy
import stackbench.contract.DownstreamClient
import stackbench.contract.IoStrategy
import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.catalog.Stack
import java.nio.file.Files

class ListCommand : CliktCommand(name = "list") {
    override fun help(context: Context) = "Lists the stacks, the strategies of each endpoint, the load drivers, and the suites."

    override fun run() {
        println("Stacks (suite key `stack`, optional `boot`):")
        println(SummaryTable.table(listOf("stack", "boot", "server", "model", "built"), Stack.entries.map {
            listOf(it.id, it.boot.id, it.server, it.model.name.lowercase(), if (Files.isRegularFile(it.jarPath(Home.path))) "yes" else "no")
        }).prependIndent("  "))
        println()
        println("Endpoints and strategies (suite key `strategies`; `clients` for downstream):")
        println("  noop                      GET /noop: the cheapest answer")
        println("  todo                      GET and POST /todo, behind HTTP Basic")
        println("  cpu  GET /cpu/{strategy}?limit=N[&batch=B]")
        CpuStrategy.entries.forEach { println("    %-22s %s".format(it.id, it.description)) }
        println("  io   GET /io/{strategy}?delay=ms")
        IoStrategy.entries.forEach { println("    %-22s %s".format(it.id, it.description)) }
        println("  downstream  GET /downstream/{client}?delay=ms")
        DownstreamClient.entries.forEach { println("    %-22s %s".format(it.id, it.description)) }
        println("  http  any request you declare (method, path with {params}, headers, body, status, body check), on any app")
        println()
        println("Your own app (in place of `stack`): `jar: PATH` (a JVM jar the lab starts) or `command: [PROGRAM, ARGS...]`,")
        println("with `ready:`, `args`/`env` taking {port} and {address} (and {db.jdbc-url}, {db.user}, {db.password} with a suite's database:); see docs/own-app.md.")
        println()
        println("Load drivers (suite key `driver`):")
        println(SummaryTable.table(listOf("driver", "version", "models", "installed", "install"), DriverCatalog.all.map { d ->
            val local = d.localPath?.let { Home.path.resolve(it) }?.takeIf { Files.isExecutable(it) }
            val onPath = SearchPath.find(d.id) != null
            listOf(d.id, d.version ?: "any", d.models.joinToString(", ") { it.id }, if (local != null || onPath) "yes" else "no", d.install.hint)
        }).prependIndent("  "))
        println()
        println("Suites (in ${Home.suites}):")
        val suites = runCatching { Files.list(Home.suites).use { s -> s.filter { it.toString().endsWith(".yaml") }.sorted().toList() } }.getOrDefault(emptyList())
        for (s in suites) {
            val description = Files.readAllLines(s).firstOrNull { it.startsWith("description:") }?.substringAfter(":")?.trim()?.trim('"') ?: ""
            println("  %-18s %s".format(s.fileName.toString().removeSuffix(".yaml"), description))
        }
    }
}
