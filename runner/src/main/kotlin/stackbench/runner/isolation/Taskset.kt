package stackbench.runner.isolation

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

    private fun list(cpus: List<Int>) = cpus.distinct().sorted().joinToString(",")
}
