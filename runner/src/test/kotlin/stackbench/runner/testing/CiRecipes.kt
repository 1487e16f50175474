package stackbench.runner.testing

import org.assertj.core.api.Assertions.assertThat
import org.snakeyaml.engine.v2.api.Load
import org.snakeyaml.engine.v2.api.LoadSettings
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.util.concurrent.TimeUnit

/**
 * The CI recipes of examples/ci run on this machine as their CI would run them: a job's steps (GitHub Actions) or its
 * script (GitLab CI) in a clone of the project, with the variables the CI sets. What only the CI's servers do is done
 * here the plainest way, and anything else a recipe asks is refused, so that a recipe cannot grow a step no test runs:
 * `actions/checkout` (the clone is the checkout), `actions/setup-java` (the JDK is here), `actions/upload-artifact`
 * (its path copied out, and required to exist), GitLab's `artifacts:` (copied out after the job).
 */
object CiRecipes {
    data class Step(val name: String, val exit: Int?, val output: String)
    data class Job(val steps: List<Step>, val workspace: Path, val artifacts: Path) {
        fun step(name: String) = steps.single { it.name == name }
        override fun toString() = steps.joinToString("\n") { "--- ${it.name}: exit ${it.exit}\n${it.output}" }
    }

    /** A clone of [home] with the built jars copied in (newer than the sources, so the launcher builds nothing). */
    fun workspace(home: Path, dir: Path): Path {
        run(listOf("git", "clone", "--quiet", home.toString(), dir.toString()), home)
        val jars = listOf("runner/target/stackbench-runner.jar", "apps/downstream/target/downstream.jar", "examples/own-app/quarkus/target/own-app-quarkus.jar") +
            Files.readAllLines(home.resolve("contract/src/main/resources/stackbench/builtin-apps.tsv"))
                .filter { it.isNotBlank() && !it.startsWith("#") }.map { it.split('\t')[4] }
        for (jar in jars) {
            Files.createDirectories(dir.resolve(jar).parent)
            Files.copy(home.resolve(jar), dir.resolve(jar), StandardCopyOption.REPLACE_EXISTING)
        }
        return dir
    }

    fun yaml(file: Path): Map<String, Any?> =
        @Suppress("UNCHECKED_CAST") (Load(LoadSettings.builder().build()).loadFromString(Files.readString(file)) as Map<String, Any?>)

    /** Runs GitHub Actions job [job] of [workflow] in [workspace] for an event, with the variables GitHub would set ([github]). */
    fun github(workflow: Path, job: String, workspace: Path, github: Map<String, String>, overrides: Map<String, String> = emptyMap()): Job {
        val root = yaml(workflow)
        val spec = map(map(root["jobs"])[job])
        val artifacts = Files.createDirectories(workspace.resolveSibling("${workspace.fileName}-artifacts"))
        val temp = Files.createDirectories(workspace.resolveSibling("${workspace.fileName}-temp"))
        val env = strings(root["env"]) + strings(spec["env"]) + github + mapOf("RUNNER_TEMP" to temp.toString(), "CI" to "true") + overrides
        val event = github.getValue("GITHUB_EVENT_NAME")
        fun expand(text: String) = Regex("\\$\\{\\{\\s*([a-z_.A-Z]+)\\s*}}").replace(text) { m ->
            val name = m.groupValues[1]
            when {
                name.startsWith("env.") -> env.getValue(name.removePrefix("env."))
                name == "github.run_id" -> env.getValue("GITHUB_RUN_ID")
                name == "runner.temp" -> temp.toString()
                else -> error("$workflow: the test knows no expression \${{ $name }}")
            }
        }
        fun wanted(condition: Any?, failed: Boolean): Boolean = when (val c = condition?.toString()?.trim()) {
            null -> !failed
            "always()" -> true
            else -> Regex("github\\.event_name == '([a-z_]+)'").matchEntire(c)?.let { !failed && it.groupValues[1] == event }
                ?: error("$workflow: the test knows no condition '$c'")
        }
        spec["if"]?.let { if (!wanted(it, false)) return Job(emptyList(), workspace, artifacts) }
        val steps = mutableListOf<Step>()
        var failed = false
        for (s in list(spec["steps"]).map(::map)) {
            val name = (s["name"] ?: s["uses"]).toString()
            if (!wanted(s["if"], failed)) { steps += Step(name, null, "skipped"); continue }
            val uses = s["uses"]?.toString()
            val step = when {
                uses == null -> shell(name, expand(s["run"].toString()), workspace, env + strings(s["env"]).mapValues { expand(it.value) })
                uses.startsWith("actions/checkout@") || uses.startsWith("actions/setup-java@") -> Step(name, 0, "emulated")
                uses.startsWith("actions/upload-artifact@") -> {
                    val path = Path.of(expand(map(s["with"])["path"].toString()))
                    assertThat(path).`as`("$name uploads what exists").exists()
                    copyTree(path, artifacts.resolve(expand(map(s["with"])["name"].toString())))
                    Step(name, 0, "uploaded $path")
                }
                else -> error("$workflow: the test emulates no step '$uses'")
            }
            steps += step
            if (step.exit != 0) failed = true
        }
        return Job(steps, workspace, artifacts)
    }

    /** Runs GitLab CI job [job] of [file]'s script in [workspace] with the [variables] GitLab would set; its `artifacts:` copied out. */
    fun gitlab(file: Path, job: String, workspace: Path, variables: Map<String, String>): Job {
        val root = yaml(file)
        val spec = map(root[job])
        val env = strings(root["variables"]) + strings(spec["variables"]) + variables + mapOf("CI" to "true")
        val script = "set -eo pipefail\n" + list(spec["script"]).joinToString("\n") { it.toString() }
        val step = shell(job, script, workspace, env)
        val artifacts = Files.createDirectories(workspace.resolveSibling("${workspace.fileName}-artifacts"))
        val kept = map(spec["artifacts"])
        if (step.exit == 0 || kept["when"] == "always") {
            val reports = map(kept["reports"]).values.map { it.toString() }
            for (path in list(kept["paths"]).map { it.toString().trimEnd('/') } + reports) {
                val from = workspace.resolve(path)
                if (Files.exists(from)) copyTree(from, artifacts.resolve(path))
            }
        }
        return Job(listOf(step), workspace, artifacts)
    }

    private fun shell(name: String, script: String, dir: Path, env: Map<String, String>): Step {
        val log = Files.createTempFile("ci-step", ".log")
        val builder = ProcessBuilder("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script).directory(dir.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(java.io.File("/dev/null")))
        builder.environment().putAll(env)
        val process = builder.start()
        if (!process.waitFor(20, TimeUnit.MINUTES)) { process.destroyForcibly(); error("$name did not finish in 20 minutes") }
        return Step(name, process.exitValue(), Files.readString(log).also { Files.delete(log) })
    }

    fun run(command: List<String>, dir: Path) {
        val p = ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start()
        val out = p.inputStream.readAllBytes().decodeToString()
        check(p.waitFor() == 0) { "${command.joinToString(" ")}: $out" }
    }

    private fun copyTree(from: Path, to: Path) {
        Files.walk(from).use { paths ->
            for (p in paths.toList()) {
                val target = to.resolve(from.relativize(p).toString())
                if (Files.isDirectory(p)) Files.createDirectories(target) else { Files.createDirectories(target.parent); Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING) }
            }
        }
    }

    @Suppress("UNCHECKED_CAST")
    private fun map(any: Any?): Map<String, Any?> = (any as? Map<String, Any?>) ?: emptyMap()
    private fun list(any: Any?): List<Any?> = (any as? List<Any?>) ?: emptyList()
    private fun strings(any: Any?): Map<String, String> = map(any).mapValues { it.value.toString() }
}
