package stackbench.runner.isolation

import java.util.concurrent.TimeUnit

/** Pinning a command to CPUs with `taskset -c`, the one way the lab does it (apps without cgroups, drivers, downstream). */
object Taskset {
    /** [command] prefixed with `taskset -c <cpus>` (sorted, once each) when [cpus] is not empty. */
    fun pinned(command: List<String>, cpus: List<Int>): List<String> {
        require(command.isNotEmpty()) { "an empty command" }
        require(cpus.all { it >= 0 }) { "CPU ids are not negative: $cpus" }
        return if (cpus.isEmpty()) command else listOf("taskset", "-c", list(cpus)) + command
    }

    /** The command that moves every thread of the running process [pid] to [cpus] (threads it starts later inherit them). */
    fun everyThreadOf(pid: Long, cpus: List<Int>): List<String> {
        require(cpus.isNotEmpty() && cpus.all { it >= 0 }) { "CPU ids to pin to: $cpus" }
        return listOf("taskset", "-a", "-p", "-c", list(cpus), pid.toString())
    }

    /** The command that moves the one thread [tid] to [cpus] (its process's other threads stay where they are). */
    fun oneThread(tid: Int, cpus: List<Int>): List<String> {
        require(cpus.isNotEmpty() && cpus.all { it >= 0 }) { "CPU ids to pin to: $cpus" }
        return listOf("taskset", "-p", "-c", list(cpus), tid.toString())
    }

    /** Runs a taskset [command]: null when it succeeded, else why not, in one line. */
    fun run(command: List<String>): String? = runCatching {
        val process = ProcessBuilder(command).redirectErrorStream(true).start()
        val output = process.inputStream.bufferedReader().readText()
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly()
            "taskset did not finish within 10 s"
        } else if (process.exitValue() != 0) {
            "${command.joinToString(" ")} exited with ${process.exitValue()}: ${output.trim().lines().lastOrNull().orEmpty()}"
        } else null
    }.getOrElse { "taskset could not run (${it.message ?: it.javaClass.simpleName})" }

    private fun list(cpus: List<Int>) = cpus.distinct().sorted().joinToString(",")
}
