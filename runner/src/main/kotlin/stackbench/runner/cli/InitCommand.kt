package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.multiple
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.multiple
import com.github.ajalt.clikt.parameters.options.option
import stackbench.runner.catalog.SearchPath
import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.scaffold.AppDraft
import stackbench.runner.scaffold.Answers
import stackbench.runner.scaffold.CheckDraft
import stackbench.runner.scaffold.Framework
import stackbench.runner.scaffold.JarKind
import stackbench.runner.scaffold.Pilot
import stackbench.runner.scaffold.PilotFigures
import stackbench.runner.scaffold.ScaffoldProblem
import stackbench.runner.scaffold.SuiteDraft
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

class InitCommand : CliktCommand(name = "init") {
    override fun help(context: Context) = """
        Writes a suite for your service: a jar (its port flag known for Spring Boot, Quarkus, Micronaut and Helidon,
        else the environment variable PORT, or --port-arg), any command (PORT, or {port} in its arguments after --), or
        the URL of one already running. It starts the service once on loopback, finds its readiness among the common
        health paths, checks one endpoint's answer (--path; the check from a real answer), and with a short pilot
        (3 processes, a few seconds of load each) writes processes: for the gate's ±5 % band. The suite is checked
        as plan reads it before it is written; then: stackbench plan FILE, stackbench run FILE. A pilot is load:
        run it when nothing else measures on the machine.
    """.trimIndent()

    private val target by argument("JAR|COMMAND|URL", help = "a jar file, a program (a path or a name on the PATH) or an http(s) URL")
    private val appArgs by argument("ARGS", help = "arguments of the jar or command (after --), {port} where it takes its port").multiple()
    private val output by option("-o", "--output", metavar = "FILE", help = "where to write the suite (default: NAME.yaml in the current folder; - for standard output)")
    private val force by option("--force", help = "overwrite an existing output file").flag()
    private val name by option("--name", help = "the suite's and the app's name (default: from the jar's or program's file name)")
    private val path by option("--path", help = "the endpoint measured, e.g. /orders/1 (default: the readiness path found)")
    private val portArgs by option("--port-arg", metavar = "ARG", help = "how the service takes its port, with {port}, instead of what init knows of its " +
        "framework, e.g. --port-arg=--port={port} or --port-arg=-Dhttp.port={port} (a -D one goes in jvm-args); repeatable").multiple()
    private val noPilot by option("--no-pilot", help = "no pilot load: processes: ${Pilot.DEFAULT}, said in a comment").flag()
    private val startTimeout by option("--start-timeout", metavar = "DURATION", help = "how long a trial start may take to listen (default 60s)")
        .duration(Duration.ofSeconds(5), Duration.ofMinutes(10)).default(Duration.ofSeconds(60))

    override fun run() {
        try { init() } catch (e: ScaffoldProblem) { throw BadInput("init: ${e.message}") }
    }

    private fun init() {
        val cwd = Path.of("").toAbsolutePath()
        val kind = kindOf(target)
        val chosenName = name ?: when (kind) {
            is Kind.Url -> java.net.URI(kind.url).host?.replace('.', '-') ?: "service"
            is Kind.Jar -> JarKind.nameOf(kind.path.fileName.toString())
            is Kind.Program -> JarKind.nameOf(kind.path.fileName.toString())
        }
        if (!chosenName.matches(Regex("[A-Za-z0-9._-]+"))) throw ScaffoldProblem("--name '$chosenName' may hold only letters, digits, '.', '_' and '-'")
        val out = when (output) { "-" -> null; null -> cwd.resolve("$chosenName.yaml"); else -> cwd.resolve(output!!).normalize() }
        if (out != null && Files.exists(out) && !force) throw ScaffoldProblem("$out exists; --force overwrites it, -o FILE writes another")
        val suiteDir = out?.parent ?: cwd
        path?.let { if (!it.startsWith("/")) throw ScaffoldProblem("--path '$it' must start with /") }

        val (jvmPort, argPort) = portArgs.partition { it.startsWith("-D") || it.startsWith("-XX") }
        val given = when {
            portArgs.isNotEmpty() -> "by --port-arg"
            appArgs.any { "{port}" in it } -> "by {port} in its arguments"
            kind is Kind.Jar && runCatching { JarKind.inspect(kind.path).framework }.getOrNull() != Framework.UNKNOWN -> "as its framework takes it"
            else -> "in the environment variable PORT (no framework init knows)"
        }
        val hint = "init gave it its port $given; if it takes it another way, say how: " +
            "--port-arg=--port={port} (an argument), --port-arg=-Dserver.port={port} (a system property), or {port} in ARGS after --"
        val draftApp: AppDraft = when (kind) {
            is Kind.Url -> AppDraft.Url(kind.url.trimEnd('/'))
            is Kind.Jar -> {
                val facts = JarKind.inspect(kind.path)
                val own = portArgs.isNotEmpty() || appArgs.any { "{port}" in it }
                val fw = facts.framework
                AppDraft.Jar(relative(suiteDir, kind.path), facts, (if (own) argPort else fw.args) + appArgs, if (own) jvmPort else fw.jvmArgs,
                    if (own) emptyMap() else fw.env)
            }
            is Kind.Program -> {
                val argv0 = if (target.contains('/')) relative(suiteDir, kind.path) else target
                AppDraft.Command(listOf(argv0) + argPort + appArgs, if (portArgs.isEmpty() && appArgs.none { "{port}" in it }) mapOf("PORT" to "{port}") else emptyMap())
            }
        }
        val trial = InitTrial(startTimeout, hint.takeIf { kind !is Kind.Url })
        val launch = InitTrial.Launch { port -> launchOf(draftApp, kind, suiteDir, port) }
        val what = when (kind) { is Kind.Url -> kind.url; is Kind.Jar -> "the jar ${kind.path}"; is Kind.Program -> "the command ${kind.path}" }
        if (kind is Kind.Url) InitTrial.reachable(kind.url, trial)

        System.err.println("stackbench init: starting $what once on loopback to find its readiness and its answer")
        val first = if (kind is Kind.Url) InitTrial.Started(null, kind.url.trimEnd('/'), null) else trial.start(what, launch, cwd)
        val (ready, readyWhy, check, endpoint) = first.use { s ->
            val health = trial.health(s.base)
            val asked = path?.let { p -> trial.get(s.base, p)?.let { p to it.status } }
            val ready = Answers.readiness(health, asked) ?: throw ScaffoldProblem("$what listened but answered none of ${Answers.HEALTH_PATHS.joinToString()} below 500: " +
                health.entries.joinToString { "${it.key} ${it.value ?: "no answer"}" })
            val readyWhy = "readiness: the trial start answered " + Answers.HEALTH_PATHS.joinToString(", ") { "$it ${health[it] ?: "-"}" } +
                if (ready.second != null && ready.first !in Answers.HEALTH_PATHS) "; so the endpoint's own ${ready.first}, which answered ${ready.second}" else ""
            val endpoint = path ?: ready.first
            val a = trial.get(s.base, endpoint) ?: throw ScaffoldProblem("$what did not answer GET $endpoint")
            val b = trial.get(s.base, endpoint) ?: a
            if (a.status >= 500) throw ScaffoldProblem("$what answered GET $endpoint with ${a.status}; --path names an endpoint that answers")
            Quad(ready, readyWhy, Answers.check(a, b).let { c -> c.copy(why = "GET $endpoint: ${c.why}") }, endpoint)
        }
        val pilot = if (noPilot || kind is Kind.Url) null else pilot(trial, what, launch, cwd, endpoint, check)
        val choice = if (kind is Kind.Url && !noPilot) Pilot.choose(null, GateCommand.DEFAULT_THRESHOLD).let {
            it.copy(comment = listOf("no pilot for a URL: its process is not the lab's to start again; ${Pilot.DEFAULT} processes a side, the default"))
        } else Pilot.choose(pilot, GateCommand.DEFAULT_THRESHOLD)
        val invocation = (listOf("stackbench init") + Invocation.args.drop(1)).joinToString(" ")
        val draft = SuiteDraft(chosenName, invocation, draftApp, ready, readyWhy, endpoint, check, choice, EnvironmentProbe.machineCpus())
        val text = draft.render()
        // what plan reads: a suite init wrote that plan refused would be init's mistake, caught here
        val shown = out?.let { Home.shown(it) } ?: Home.shown(cwd.resolve("$chosenName.yaml"))
        SuiteParser(MachineFacts(EnvironmentProbe.machineCpus()), Home.path).parse(text, shown)
        if (out == null) { print(text); return }
        Files.createDirectories(out.parent)
        Files.writeString(out, text)
        println("wrote $out: ${summary(draftApp)}, ready on ${ready.first}, GET $endpoint checked (${check.check?.let { "status ${check.status} and the body" } ?: "status ${check.status}"}), " +
            "processes: ${choice.processes}")
        println("next: stackbench plan ${cwd.relativize(out)}, then stackbench run ${cwd.relativize(out)}")
    }

    private data class Quad<A, B, C, D>(val a: A, val b: B, val c: C, val d: D)

    private fun pilot(trial: InitTrial, what: String, launch: InitTrial.Launch, cwd: Path, endpoint: String, check: CheckDraft): PilotFigures {
        val rates = (1..PILOT_PROCESSES).map { i ->
            System.err.println("stackbench init: pilot process $i of $PILOT_PROCESSES: ${PILOT_WARMUP.seconds} s of load, then ${PILOT_SECONDS} s counted")
            trial.start(what, launch, cwd).use { s ->
                trial.health(s.base)
                trial.load(s.base, endpoint, check.status, PILOT_CONNECTIONS, PILOT_WARMUP, PILOT_SECONDS)
            }.also { System.err.println("  %.1f req/s".format(java.util.Locale.ROOT, it)) }
        }
        return PilotFigures(rates, PILOT_SECONDS, PILOT_CONNECTIONS)
    }

    private fun summary(app: AppDraft) = when (app) {
        is AppDraft.Jar -> (if (app.facts.framework == Framework.UNKNOWN) "a jar" else "a ${app.facts.framework.shown} jar") + (app.args + app.jvmArgs + app.env.map { "${it.key}=${it.value}" }).let { if (it.isEmpty()) "" else " (${it.joinToString(" ")})" }
        is AppDraft.Command -> "a command"
        is AppDraft.Url -> "a running service"
    }

    private fun launchOf(app: AppDraft, kind: Kind, suiteDir: Path, port: Int): Pair<List<String>, Map<String, String>> {
        fun fill(s: String) = s.replace("{port}", port.toString()).replace("{address}", "127.0.0.1")
        return when (app) {
            is AppDraft.Jar -> (listOf(Home.java.toString()) + app.jvmArgs.map(::fill) + listOf("-jar", (kind as Kind.Jar).path.toString()) + app.args.map(::fill)) to
                app.env.mapValues { fill(it.value) }
            is AppDraft.Command -> (listOf((kind as Kind.Program).path.toString()) + app.argv.drop(1).map(::fill)) to app.env.mapValues { fill(it.value) }
            is AppDraft.Url -> emptyList<String>() to emptyMap()
        }
    }

    private sealed interface Kind {
        data class Jar(val path: Path) : Kind
        data class Program(val path: Path) : Kind
        data class Url(val url: String) : Kind
    }

    private fun kindOf(target: String): Kind {
        if (target.startsWith("http://") || target.startsWith("https://")) return Kind.Url(target)
        val file = Path.of(target).toAbsolutePath().normalize()
        if (target.endsWith(".jar")) {
            if (!Files.exists(file)) throw ScaffoldProblem("$file does not exist")
            return Kind.Jar(file)
        }
        if (Files.isRegularFile(file)) {
            val zip = runCatching { Files.newInputStream(file).use { it.readNBytes(2).contentEquals(byteArrayOf('P'.code.toByte(), 'K'.code.toByte())) } }.getOrDefault(false)
            if (zip) return Kind.Jar(file)
            if (!Files.isExecutable(file)) throw ScaffoldProblem("$file is neither a jar nor an executable program (chmod +x?)")
            return Kind.Program(file)
        }
        if (target.contains('/')) throw ScaffoldProblem("$file does not exist (a jar, a program or an http(s) URL)")
        return SearchPath.find(target)?.let { Kind.Program(it) } ?: throw ScaffoldProblem("'$target' is not a file, not a program on the PATH and not an http(s) URL")
    }

    /** [file] relative to the suite's folder [dir] when it is near it (at most two folders up), else absolute: the suite reads either. */
    private fun relative(dir: Path, file: Path): String {
        val rel = runCatching { dir.relativize(file) }.getOrNull() ?: return file.toString()
        return if (rel.toString().isEmpty() || rel.count { it.toString() == ".." } > 2) file.toString() else rel.toString()
    }

    companion object {
        const val PILOT_PROCESSES = 3
        const val PILOT_SECONDS = 4
        const val PILOT_CONNECTIONS = 10
        val PILOT_WARMUP: Duration = Duration.ofSeconds(3)
    }
}
