package stackbench.runner.profiler

import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** `jcmd PID COMMAND...` of the JDK that runs the app, bounded in time; its output and, for an agent, the agent's return code. */
class Jcmd(private val jcmd: Path) {
    data class Result(val exit: Int, val output: String) {
        /** The "return code: N" that `JVMTI.agent_load` prints for the agent's own answer; null when absent. */
        val agentReturn: Int? get() = Regex("""return code: (-?\d+)""").find(output)?.groupValues?.get(1)?.toInt()
        val ok: Boolean get() = exit == 0 && (agentReturn ?: 0) == 0
    }

    fun run(pid: Long, vararg command: String, timeoutSeconds: Long = 30): Result {
        val process = ProcessBuilder(listOf(jcmd.toString(), pid.toString()) + command).redirectErrorStream(true).start()
        val output = StringBuilder()
        val reader = Thread { output.append(process.inputStream.bufferedReader().readText()) }.apply { isDaemon = true; start() }
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly()
            return Result(-1, "jcmd ${command.firstOrNull()} gave no answer in $timeoutSeconds s")
        }
        reader.join(2000)
        return Result(process.exitValue(), output.toString().trim())
    }

    companion object {
        /** The jcmd beside [java] (`…/bin/java` → `…/bin/jcmd`). */
        fun beside(java: Path): Jcmd = Jcmd(java.resolveSibling("jcmd"))
    }
}
