package stackbench.runner.isolation

import java.nio.file.Path
import kotlin.io.path.readText

/**
 * How the lab confines a process: in cgroups when it can write them, else only pinned with taskset (no
 * quota, no memory limit), which results record.
 */
sealed interface Isolation {
    /** cgroup-v1, cgroup-v2, or taskset. */
    val kind: String
    /** Why cgroups are not used, when they are not. */
    val limitation: String?

    fun confine(name: String, limits: CgroupLimits): Confinement

    /** A group with no limits, for accounting (CPU time) and cleanup, pinned to [cpus] with taskset. */
    fun account(name: String, cpus: List<Int>): Confinement

    /** Cleans what an earlier run left behind; returns what it removed. */
    fun removeStale(kill: (Long) -> Unit): List<String>

    /**
     * Takes threads [tids] of a confined process out of its CPU limits (quota and CPU set), where they can leave them:
     * answers whether they did. Their CPUs are then the caller's to set ([Taskset.oneThread]).
     */
    fun releaseThreads(tids: List<Int>): Boolean

    /** Where the lab's groups are made (one folder per controller), for the run's watchdog; empty without cgroups. */
    val groupRoots: List<Path>

    /**
     * The confinement of a start on every CPU (`profile.start-cpus: all`): [limits]' memory limit and no CPU limit,
     * pinned to all [machineCpus] CPUs after joining its group. Without that pin the process would keep the runner's
     * own CPUs, which it inherits (the runner keeps itself off the app's CPUs while a cell runs, host.SelfAffinity).
     * [limitCpus] puts the CPU limits on once the process is ready.
     */
    fun confineStartingWide(name: String, limits: CgroupLimits, machineCpus: Int): Confinement =
        Confinement(confine(name, CgroupLimits(null, emptyList(), limits.memoryBytes)).cgroup, (0 until machineCpus).toList())

    /**
     * Puts [limits]' CPU quota and CPU set on the running process [pid], confined in [confinement] without them
     * (`profile.start-cpus: all`); null when done, else why not, in one line.
     */
    fun limitCpus(confinement: Confinement, pid: Long, limits: CgroupLimits): String?

    class WithCgroups(val cgroups: Cgroups) : Isolation {
        override val kind get() = cgroups.layout.version.id
        override val limitation: String? get() = null
        override fun confine(name: String, limits: CgroupLimits) = Confinement(cgroups.create(name, limits), emptyList())
        override fun account(name: String, cpus: List<Int>) = Confinement(cgroups.create(name, CgroupLimits.NONE, accountingOnly = true), cpus)
        override fun removeStale(kill: (Long) -> Unit) = cgroups.removeStale(kill)
        override fun releaseThreads(tids: List<Int>) = cgroups.releaseThreads(tids)
        override val groupRoots: List<Path> get() = cgroups.roots()
        override fun limitCpus(confinement: Confinement, pid: Long, limits: CgroupLimits): String? {
            val group = confinement.cgroup ?: return "the process has no cgroup"
            return runCatching { cgroups.limitCpus(group, limits) }.exceptionOrNull()?.let { it.message ?: it.javaClass.simpleName }
        }

    }

    class TasksetOnly(override val limitation: String) : Isolation {
        override val kind get() = "taskset"
        override fun confine(name: String, limits: CgroupLimits) = Confinement(null, limits.cpus)
        override fun account(name: String, cpus: List<Int>) = Confinement(null, cpus)
        override fun removeStale(kill: (Long) -> Unit) = emptyList<String>()
        // pinned with taskset, nothing else holds them: pinning them elsewhere releases them
        override fun releaseThreads(tids: List<Int>) = true
        override val groupRoots: List<Path> get() = emptyList()
        // no quota without cgroups: only the CPU set, by pinning every thread (threads started later inherit it)
        override fun limitCpus(confinement: Confinement, pid: Long, limits: CgroupLimits): String? =
            if (limits.cpus.isEmpty()) null else Taskset.run(Taskset.everyThreadOf(pid, limits.cpus))
    }

    companion object {
        /** Finds out, by trying, whether this process can create and remove cgroups. */
        fun detect(
            mounts: String = runCatching { Path.of("/proc/mounts").readText() }.getOrDefault(""),
            self: String = runCatching { Path.of("/proc/self/cgroup").readText() }.getOrDefault(""),
        ): Isolation {
            val layout = CgroupLayout.parse(mounts, self)
                ?: return TasksetOnly("no cgroup v1 cpu/cpuset/memory controllers and no cgroup v2 hierarchy are mounted")
            val cgroups = Cgroups(layout, idle = SchedPolicy.thisProcessIdle())
            return try {
                cgroups.create("probe-${ProcessHandle.current().pid()}", CgroupLimits(0.5, emptyList(), 256L shl 20)).remove { }
                WithCgroups(cgroups)
            } catch (e: Exception) {
                TasksetOnly("cgroups at ${layout.bases.values.joinToString()} cannot be written (${e.message}); run as root for CPU quotas and memory limits")
            }
        }
    }
}

/** A confined process's group (or just its CPU pinning), and the command wrapper that puts it there. */
class Confinement(val cgroup: Cgroup?, val tasksetCpus: List<Int>) {

    /**
     * Wraps [command] so that the process is in its group before the command runs: a shell writes its own
     * pid to the group's procs files, then execs the command, which keeps the pid (and the group).
     */
    fun wrap(command: List<String>): List<String> {
        // pin after joining: joining a cpuset group resets the CPUs a process may use
        val pinned = Taskset.pinned(command, tasksetCpus)
        return cgroup?.let { g ->
            val joins = g.joinFiles.joinToString(" && ") { "echo \$\$ > ${shellQuote(it.toString())}" }
            listOf("/bin/sh", "-c", "$joins && exec \"\$@\"", "stackbench-join") + pinned
        } ?: pinned
    }

    fun counters(): CgroupCounters? = cgroup?.counters()

    fun release(kill: (Long) -> Unit) {
        cgroup?.remove(kill)
    }

    companion object {
        fun none() = Confinement(null, emptyList())
        fun pinned(cpus: List<Int>) = Confinement(null, cpus)
        fun shellQuote(s: String) = "'" + s.replace("'", "'\\''") + "'"
    }
}
