package stackbench.runner.install

import stackbench.runner.host.ParentDeath
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * Carries out an [InstallPlan]: the apt-get steps one after the other (their output on this terminal), then the
 * builds all at once, each into its own log under `.tools/logs/`, with a progress line every [every].
 */
class Installer(private val tools: Path, private val out: PrintStream, private val every: Duration = Duration.ofSeconds(30)) {
    /** What was installed and what failed, by tool id. */
    data class Outcome(val installed: List<String>, val failed: List<String>)

    private class Build(val step: Step, val log: Path, val process: Process, val started: Long)

    /** Runs [plan]; when it installs nothing and has nothing to say, prints [nothing]. */
    fun carry(plan: InstallPlan, nothing: String = "nothing to install"): Outcome {
        plan.messages.forEach { out.println("stackbench: $it") }
        if (plan.isEmpty) {
            if (plan.messages.isEmpty()) out.println("stackbench: $nothing")
            return Outcome(emptyList(), emptyList())
        }
        val installed = mutableListOf<String>()
        val failed = mutableListOf<String>()
        if (plan.apt.isNotEmpty()) {
            val ids = plan.apt.last().tools
            out.println("stackbench: installing ${ids.joinToString(", ")} with apt-get")
            val code = plan.apt.fold(0) { code, step ->
                if (code != 0) code else {
                    out.println("  $ $step")
                    val exit = process(step).inheritIO().start().waitFor()
                    if (exit != 0) out.println("stackbench: `$step` failed (exit $exit)")
                    exit
                }
            }
            if (code == 0) installed += ids else failed += ids
        }
        if (plan.builds.isNotEmpty()) build(plan.builds, installed, failed)
        return Outcome(installed, failed)
    }

    private fun build(steps: List<Step>, installed: MutableList<String>, failed: MutableList<String>) {
        val logs = tools.resolve("logs")
        Files.createDirectories(logs)
        val minutes = steps.maxOf { it.minutes }
        out.println("stackbench: building ${steps.joinToString(" and ") { it.tools.joinToString() }}" +
            (if (steps.size > 1) " at the same time" else "") + " (about $minutes minutes the first time); the output goes to:")
        val running = steps.map { step ->
            val log = logs.resolve("install-${step.tools.joinToString("-")}.log")
            out.println("  $log   ($ $step)")
            Build(step, log, process(step).redirectErrorStream(true).redirectOutput(log.toFile()).start(), System.nanoTime())
        }
        val stop = Thread { running.forEach { b -> b.process.descendants().forEach { it.destroy() }; b.process.destroy() } }
        Runtime.getRuntime().addShutdownHook(stop)
        val start = System.nanoTime()
        var progress = start + every.toNanos()
        val pending = running.toMutableList()
        val done = mutableMapOf<Build, String>()
        while (pending.isNotEmpty()) {
            pending.first().process.waitFor(1, TimeUnit.SECONDS)
            for (b in pending.filter { !it.process.isAlive }) {
                pending -= b
                val took = elapsed(b.started)
                val id = b.step.tools.joinToString()
                if (b.process.exitValue() == 0) {
                    installed += b.step.tools
                    done[b] = "$id built in $took"
                    out.println("stackbench: $id built in $took")
                } else {
                    failed += b.step.tools
                    done[b] = "$id failed"
                    out.println("stackbench: building $id failed (exit ${b.process.exitValue()}, after $took); the end of ${b.log}:")
                    runCatching { Files.readAllLines(b.log) }.getOrDefault(emptyList()).takeLast(20).forEach { out.println("  $id| $it") }
                }
            }
            if (pending.isNotEmpty() && System.nanoTime() >= progress) {
                out.println("stackbench: ${elapsed(start)}: " + running.joinToString(", ") { b ->
                    done[b] ?: "${b.step.tools.joinToString()} building (about ${b.step.minutes} min)"
                })
                progress += every.toNanos()
            }
        }
        runCatching { Runtime.getRuntime().removeShutdownHook(stop) }
    }

    companion object {
        /**
         * The process of a step: its environment added, the folder of a toolchain given by its path put first on PATH
         * (rustup's cargo in `~/.cargo/bin` runs rustc from there), and tied to this process's life ([ParentDeath]).
         */
        fun process(step: Step): ProcessBuilder {
            val builder = ProcessBuilder(ParentDeath.wrap(step.command))
            builder.environment().putAll(step.env)
            val exe = Path.of(step.command.first())
            if (exe.isAbsolute && exe.parent != null) {
                builder.environment()["PATH"] = listOfNotNull(exe.parent.toString(), System.getenv("PATH")).joinToString(":")
            }
            return builder
        }

        private fun elapsed(since: Long): String {
            val s = Duration.ofNanos(System.nanoTime() - since).seconds
            return if (s < 60) "${s}s" else "${s / 60}m%02ds".format(s % 60)
        }
    }
}
