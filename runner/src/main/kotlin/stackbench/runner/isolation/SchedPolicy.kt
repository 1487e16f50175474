package stackbench.runner.isolation

import java.nio.file.Path
import kotlin.io.path.readText

/**
 * The Linux scheduling policy a process runs under, from field 41 of `/proc/<pid>/stat`. A runner started at idle CPU
 * priority (`chrt --idle 0`, SCHED_IDLE) runs only on CPU time that nothing else wants; its children inherit that, but a
 * cgroup would lift them back: each v1 `cpu` group (and v2 group) is one scheduling entity of normal weight beside its
 * siblings, whatever the policy of the threads inside. So a runner at idle priority marks its groups `cpu.idle`
 * ([Cgroups]), and what it confines stays as idle as itself.
 */
object SchedPolicy {
    /** SCHED_IDLE's number in the kernel's ABI (include/uapi/linux/sched.h). */
    const val IDLE = 5

    /** The policy number of `/proc/<pid>/stat`'s text [stat]; null when it cannot be read. */
    fun parse(stat: String): Int? {
        // the command name (field 2) is in parentheses and may hold spaces: count fields after its last ')'
        val afterName = stat.substringAfterLast(')', "").trim().split(' ')
        // afterName[0] is field 3 (the state), so field 41 is at index 38
        return afterName.getOrNull(38)?.toIntOrNull()
    }

    /** Whether this process (its main thread, which every thread it starts inherits from) runs at idle CPU priority. */
    fun thisProcessIdle(): Boolean =
        runCatching { parse(Path.of("/proc/self/stat").readText()) }.getOrNull() == IDLE
}
