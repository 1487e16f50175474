package stackbench.runner.isolation

/** Pinning a command to CPUs with `taskset -c`, the one way the lab does it (apps without cgroups, drivers, downstream). */
object Taskset {
    /** [command] prefixed with `taskset -c <cpus>` (sorted, once each) when [cpus] is not empty. */
    fun pinned(command: List<String>, cpus: List<Int>): List<String> {
        require(command.isNotEmpty()) { "an empty command" }
        require(cpus.all { it >= 0 }) { "CPU ids are not negative: $cpus" }
        return if (cpus.isEmpty()) command else listOf("taskset", "-c", cpus.distinct().sorted().joinToString(",")) + command
    }
}
