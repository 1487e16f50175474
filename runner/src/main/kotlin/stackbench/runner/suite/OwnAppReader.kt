package stackbench.runner.suite

import org.snakeyaml.engine.v2.nodes.ScalarNode
import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.YamlMap
import java.net.URI
import java.nio.file.Path
import java.time.Duration

/**
 * Reads an `apps:` entry for a team's own service: `jar: PATH` or `command: [PROGRAM, ARGS...]`, with `args`, `env`,
 * (for a jar) `jvm-args` and `system-properties`, and `ready:` (a path, or `{path, status, timeout}`); or `url: URL`,
 * a service already running, with `ready:` and `name:` only. Relative paths are the suite file's: they are joined to
 * [folder] here.
 */
internal class OwnAppReader(private val m: YamlMap, private val problems: Problems, private val folder: Path, private val hasDatabase: Boolean = false) {
    fun read(): AppConfig? {
        for ((key, why) in SPRING_ONLY) if (m.has(key)) {
            m.valueNode(key)
            problems.at(m.keyNode(key), m.qualify(key), "is for the built-in apps: $why",
                if (m.has("url")) "a url: app is already running: set it up where it runs" else "pass your app's own settings in args or env")
        }
        if (m.has("url")) return url()
        val isJar = m.has("jar")
        val source = if (isJar) jar() else command()
        val jvmArgs = if (isJar) m.scalars("jvm-args")?.map { it.value } ?: emptyList() else emptyList()
        val systemProperties = if (isJar) m.stringMap("system-properties") ?: emptyMap() else emptyMap()
        if (!isJar) for (key in listOf("jvm-args", "system-properties", "jdk", "profiler")) if (m.has(key)) {
            m.valueNode(key)
            problems.at(m.keyNode(key), m.qualify(key), "is for a JVM jar the lab starts (jar: PATH); " +
                if (key == "profiler") "a command's process is not profiled" else "a command's flags, and its java, go in its own list")
        }
        val jdk = if (isJar) JdkKey.read(m, problems, folder) else null
        val profiler = if (isJar) ProfilerReader.readApp(m, problems) else null
        val ready = readiness()
        val build = m.scalars("build")?.map { it.value }?.takeIf { it.isNotEmpty() }?.let { OwnBuild(it, folder.toString()) }
        val name = m.string("name") ?: when (source) {
            is AppSource.Jar -> Path.of(source.path).fileName.toString().removeSuffix(".jar")
            is AppSource.Command -> Path.of(source.argv.first()).fileName.toString()
            else -> null
        }
        m.finish()
        if (source == null || name == null) return null
        val words = when (source) {
            is AppSource.Jar -> source.args + source.env.values + jvmArgs + systemProperties.values
            is AppSource.Command -> source.argv + source.env.values
            else -> emptyList()
        }
        if (words.none { it.contains("{port}") }) {
            val key = if (source is AppSource.Jar) "args" else "command"
            problems.at(m.keyNode(key) ?: m.keyNode("jar") ?: m.node, m.qualify(key), "never passes {port}: the lab picks a free port for every start and cannot tell the app which",
                if (source is AppSource.Jar) "e.g. args: [--server.port={port}], jvm-args: [-Dquarkus.http.port={port}], or env: {PORT: \"{port}\"}" else "e.g. command: [./server, --port, \"{port}\"] or env: {PORT: \"{port}\"}")
        }
        checkDatabasePlaceholders(source, jvmArgs, systemProperties.values.toList())
        if (!name.matches(Regex("[A-Za-z0-9._@-]+"))) {
            problems.at(m.keyNode("name") ?: m.node, m.qualify("name"), "'$name' may hold only letters, digits, '.', '_', '@' and '-'")
        }
        return AppConfig(name, source, false, emptyMap(), systemProperties, jvmArgs, ready, build, jdk, profiler)
    }

    /**
     * `url: http(s)://HOST[:PORT][/BASE]`: a service already running, which the lab does not start. Every key that
     * says how to start or configure a process is refused, naming it: nothing here would use it.
     */
    private fun url(): AppConfig? {
        for (key in STARTS_A_PROCESS) if (m.has(key)) {
            m.valueNode(key)
            problems.at(m.keyNode(key), m.qualify(key), "is for an app the lab starts (jar: or command:); a url: app is a service already running, " +
                "which the lab neither starts nor configures", "set it where the service runs, or start it with jar: or command: instead of url:")
        }
        val node = m.scalar("url")
        val url = node?.value?.let { parseUrl(it, node) }
        val ready = readiness()
        val name = m.string("name") ?: url?.let { u -> URI(Secrets.uriSafe(u)).let { if (it.port >= 0) "${it.host}-${it.port}" else it.host } }
        m.finish()
        if (url == null || name == null) return null
        if (!name.matches(Regex("[A-Za-z0-9._@-]+"))) {
            problems.at(m.keyNode("name") ?: m.node, m.qualify("name"), "'$name' may hold only letters, digits, '.', '_', '@' and '-'")
        }
        return AppConfig(name, AppSource.Url(url), false, emptyMap(), emptyMap(), emptyList(), ready, null)
    }

    /** The url as [AppSource.Url] holds it (no trailing `/`), or null with the problem named at [node]. */
    private fun parseUrl(text: String, node: org.snakeyaml.engine.v2.nodes.Node): String? {
        val hint = "e.g. url: http://127.0.0.1:8080, or url: https://orders.example.com/api (a base path before each endpoint's path)"
        fun bad(why: String): String? = null.also { problems.at(node, m.qualify("url"), "'$text' $why", hint) }
        val uri = runCatching { URI(Secrets.uriSafe(text.trim())) }.getOrNull() ?: return bad("is not a URL")
        return when {
            uri.scheme?.lowercase() !in setOf("http", "https") -> bad("is not an http:// or https:// URL")
            uri.host.isNullOrEmpty() -> bad("names no host")
            uri.rawUserInfo != null -> bad("holds a user name or password: the lab records its url in results")
            uri.rawQuery != null || uri.rawFragment != null -> bad("has a query or fragment: a base url is a scheme, host, port and path; the endpoints add their own query")
            else -> "${uri.scheme.lowercase()}://${uri.rawAuthority}${uri.rawPath.orEmpty().trimEnd('/')}"
        }
    }

    private fun jar(): AppSource.Jar? {
        val path = m.string("jar")?.takeIf { it.isNotBlank() }
            ?: return null.also { problems.at(m.valueNode("jar"), m.qualify("jar"), "must name a jar file", "e.g. jar: build/libs/orders.jar (relative to this suite's folder)") }
        if (!path.endsWith(".jar")) problems.at(m.valueNode("jar"), m.qualify("jar"), "'$path' is not a .jar file", "a command: [...] starts anything else")
        return AppSource.Jar(relative(path), args(), env())
    }

    private fun command(): AppSource.Command? {
        val argv = m.scalars("command")?.map { it.value } ?: return null // scalars() named what is wrong
        if (argv.isEmpty()) return null // named by scalars() too
        if (argv.first().isBlank()) {
            problems.at(m.valueNode("command") ?: m.node, m.qualify("command"), "must list the program and its arguments", "e.g. command: [./orders-server, --port, \"{port}\"]")
            return null
        }
        if (m.has("args")) problems.at(m.keyNode("args"), m.qualify("args"), "a command's arguments follow its program in the command: list")
        val program = argv.first().let { if (it.contains('/')) relative(it) else it }
        return AppSource.Command(listOf(program) + argv.drop(1), env())
    }

    private fun args(): List<String> = m.scalars("args")?.map { it.value } ?: emptyList()

    private fun env(): Map<String, String> = m.stringMap("env") ?: emptyMap()

    /** A path as written, joined to the suite's folder unless absolute. */
    private fun relative(path: String): String = if (Path.of(path).isAbsolute) path else folder.resolve(path).normalize().toString()

    private fun readiness(): Readiness? {
        val node = m.valueNode("ready") ?: return null
        if (node is ScalarNode) return path(node.value, node)?.let { Readiness(it, 200, Readiness.DEFAULT_TIMEOUT) }
        val r = m.map("ready") ?: return null
        val path = r.requiredString("path", "e.g. path: /health")?.let { path(it, r.valueNode("path")) }
        val status = r.int("status", 100..599) ?: 200
        val timeout = r.duration("timeout", Duration.ofSeconds(1), Duration.ofMinutes(30)) ?: Readiness.DEFAULT_TIMEOUT
        r.finish()
        return path?.let { Readiness(it, status, timeout) }
    }

    private fun path(value: String, node: org.snakeyaml.engine.v2.nodes.Node?): String? =
        value.takeIf { it.startsWith("/") } ?: null.also { problems.at(node, m.qualify("ready"), "'$value' is not a path", "e.g. ready: /health, or ready: {path: /q/health/ready, status: 200, timeout: 60s}") }

    private companion object {
        val PLACEHOLDER = Regex("""\{db\.[A-Za-z0-9_-]*}""")
        /** What only an app the lab starts can use. */
        val STARTS_A_PROCESS = listOf("args", "env", "jvm-args", "system-properties", "build", "jdk", "profiler")

        val SPRING_ONLY = listOf(
            "properties" to "Spring properties of the lab's own apps",
            "virtual-threads" to "the built-in apps' switch (spring.threads.virtual.enabled)",
            "boot" to "the Spring Boot line of a built-in stack",
        )
    }

    /** `{db.*}` in args, env or flags: a placeholder the lab knows, in a suite that has a `database:`. */
    private fun checkDatabasePlaceholders(source: AppSource, jvmArgs: List<String>, systemProperties: List<String>) {
        val keyed = when (source) {
            is AppSource.Jar -> listOf("args" to source.args, "env" to source.env.values.toList(), "jvm-args" to jvmArgs, "system-properties" to systemProperties)
            is AppSource.Command -> listOf("command" to source.argv, "env" to source.env.values.toList())
            else -> emptyList()
        }
        for ((key, words) in keyed) {
            val named = words.flatMap { w -> PLACEHOLDER.findAll(w).map { it.value }.toList() }.distinct()
            if (named.isEmpty()) continue
            val node = m.valueNode(key) ?: m.node
            val unknown = named.filter { it !in DatabaseSpec.PLACEHOLDERS }
            if (unknown.isNotEmpty()) {
                problems.at(node, m.qualify(key), "${unknown.joinToString()} is not a database placeholder", "the lab fills in: ${DatabaseSpec.PLACEHOLDERS.joinToString()}")
            } else if (!hasDatabase) {
                problems.at(node, m.qualify(key), "names ${named.joinToString()}, but the suite has no database: for the lab to start",
                    "add database: {engine: postgresql, schema: ${DatabaseSpec.DEFAULT_SCHEMA}}")
            }
        }
    }
}
