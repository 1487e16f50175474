package stackbench.runner.sut

import stackbench.runner.catalog.SearchPath
import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.AppSource
import stackbench.runner.suite.Readiness
import java.nio.file.Files
import java.nio.file.Path

/**
 * Any process the lab starts: a native binary, a script, a server on another runtime. `{port}` and `{address}` are
 * filled in its arguments and environment. The lab isolates and samples it as any app, but knows nothing of its
 * runtime: no JIT, no GC log, no in-app counter; its warm-up rests on its throughput alone.
 */
class OwnCommand(private val source: AppSource.Command, private val app: AppConfig, private val home: Path) : SystemUnderTest {
    override val kind get() = source.id
    override val capabilities = Capabilities(process = true, statsChannel = false, info = false, startLine = false, primeEndpoint = false, jvm = false)
    override val readiness = app.ready ?: Readiness.ANY_ANSWER

    /** The program: a path (with a '/'), resolved against the lab's home, or a name found on the PATH. */
    val program: Path? get() {
        val first = source.argv.first()
        if (first.contains('/')) return home.resolve(first).normalize()
        return SearchPath.find(first)
    }

    override fun problem(): String? {
        val program = program ?: return "apps.${app.name}.command: '${source.argv.first()}' is not found on the PATH"
        return when {
            !Files.isRegularFile(program) -> "apps.${app.name}.command: $program does not exist"
            !Files.isExecutable(program) -> "apps.${app.name}.command: $program is not executable (chmod +x?)"
            else -> null
        }
    }

    override fun command(ctx: LaunchContext): List<String> =
        listOf(program!!.toString()) + source.argv.drop(1).map { AppSource.substitute(it, ctx.ports.http, ctx.address, ctx.placeholders) }

    override fun environment(ctx: LaunchContext) = source.env.mapValues { AppSource.substitute(it.value, ctx.ports.http, ctx.address, ctx.placeholders) }
}
