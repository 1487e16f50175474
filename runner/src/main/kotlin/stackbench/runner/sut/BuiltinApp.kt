package stackbench.runner.sut

import stackbench.contract.Paths
import stackbench.runner.catalog.Stack
import stackbench.runner.suite.Readiness
import java.nio.file.Files
import java.nio.file.Path

/** One of the lab's own Spring Boot apps: it offers every capability, and is started the way [AppCommand] says. */
class BuiltinApp(val stack: Stack, private val home: Path, private val fastStart: Boolean) : SystemUnderTest {
    override val kind get() = stack.label
    override val capabilities = Capabilities(process = true, statsChannel = true, info = true, startLine = true, primeEndpoint = true, jvm = true)
    override val readiness = Readiness(Paths.HEALTH, 200, Readiness.DEFAULT_TIMEOUT)

    val jar: Path get() = stack.jarPath(home)

    override fun problem(): String? =
        if (Files.isRegularFile(jar)) null else "the ${stack.label} app is not built: $jar is missing (run ./stackbench build)"

    override fun command(ctx: LaunchContext): List<String> {
        val launch = if (fastStart) FastStart.launch(ctx.java, jar) else listOf("-jar", jar.toString())
        return AppCommand.build(ctx.java, launch, ctx.cell, ctx.machineCpus, ctx.address, ctx.ports, ctx.downstreamUrl, ctx.gcLog, ctx.database)
    }
}
