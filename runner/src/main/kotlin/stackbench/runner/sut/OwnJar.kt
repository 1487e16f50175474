package stackbench.runner.sut

import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.AppSource
import stackbench.runner.suite.Readiness
import java.nio.file.Files
import java.nio.file.Path

/**
 * A team's own JVM jar: started with the lab's JVM flags (processors, heap, GC log; [AppCommand.jvmFlags]), the
 * suite's system properties and `jvm-args`, then `-jar` and its `args` with `{port}` and `{address}` filled in. A
 * HotSpot JVM the lab starts offers its JVM signals from outside; nothing of the app's own (counter, pools, start line).
 */
class OwnJar(private val source: AppSource.Jar, private val app: AppConfig, home: Path, override val jdk: AppJdk? = null) : SystemUnderTest {
    val jar: Path = home.resolve(source.path).normalize()
    override val kind get() = source.id
    override val capabilities = Capabilities(process = true, statsChannel = false, info = false, startLine = false, primeEndpoint = false, jvm = true)
    override val readiness = app.ready ?: Readiness.ANY_ANSWER

    override fun problem(): String? = when {
        !Files.isRegularFile(jar) -> "apps.${app.name}.jar: $jar does not exist" + if (source.path.contains("target/")) " (build it first)" else ""
        !isZip(jar) -> "apps.${app.name}.jar: $jar is not a jar (it does not start as a zip file does)"
        else -> jdk?.problem(app, 0, emptyList()) // what the jar needs of its JDK is the team's to know
    }

    override fun command(ctx: LaunchContext): List<String> =
        listOf((jdk?.jdk?.java ?: ctx.java).toString()) + (AppCommand.jvmFlags(ctx.cell, ctx.machineCpus, ctx.gcLog) + listOf("-jar", jar.toString()) + source.args)
            .map { AppSource.substitute(it, ctx.ports.http, ctx.address, ctx.placeholders) }

    override fun environment(ctx: LaunchContext) = source.env.mapValues { AppSource.substitute(it.value, ctx.ports.http, ctx.address, ctx.placeholders) }

    private fun isZip(file: Path): Boolean = runCatching {
        Files.newInputStream(file).use { val head = it.readNBytes(4); head.size == 4 && head[0] == 'P'.code.toByte() && head[1] == 'K'.code.toByte() }
    }.getOrDefault(false)
}
