package stackbench.runner.isolation

import java.io.IOException
import java.nio.file.Path

/**
 * Creates and removes the lab's cgroups, all under one `stackbench` group per controller so that a later
 * run can find and clean what an earlier, killed run left behind.
 */
class Cgroups(
    val layout: CgroupLayout,
    private val fs: CgroupFs = KernelCgroupFs,
    private val rootName: String = "stackbench",
    /** Whether the runner runs at idle CPU priority ([SchedPolicy]): its groups are then marked `cpu.idle`. */
    private val idle: Boolean = false,
) {

    private val controllers: List<String> =
        if (layout.version == CgroupVersion.V2) listOf("") else CgroupLayout.V1_CONTROLLERS.filter { layout.base(it) != null }

    private fun root(controller: String): Path = layout.base(controller)!!.resolve(rootName)

    /** The lab's root group in each controller: every group of the lab is a directory right under one. */
    fun roots(): List<Path> = controllers.map { root(it) }

    /** Makes the lab's root groups, with what their children need from them. */
    fun prepare() {
        for (c in controllers) {
            val root = root(c)
            if (!fs.exists(root)) fs.mkdir(root)
            when {
                c == "cpuset" -> {
                    // a new v1 cpuset group starts empty; give the lab's root the parent's CPUs and memory nodes
                    val parent = layout.base(c)!!
                    fs.read(parent.resolve("cpuset.cpus"))?.trim()?.takeIf { it.isNotEmpty() }?.let { fs.write(root.resolve("cpuset.cpus"), it) }
                    fs.read(parent.resolve("cpuset.mems"))?.trim()?.takeIf { it.isNotEmpty() }?.let { fs.write(root.resolve("cpuset.mems"), it) }
                }
                c == "" -> {
                    // v2: let children use the controllers the lab sets
                    val available = fs.read(layout.base("")!!.resolve("cgroup.controllers"))?.split(' ')?.map { it.trim() } ?: emptyList()
                    val wanted = listOf("cpu", "cpuset", "memory").filter { it in available }
                    runCatching { fs.write(layout.base("")!!.resolve("cgroup.subtree_control"), wanted.joinToString(" ") { "+$it" }) }
                    runCatching { fs.write(root.resolve("cgroup.subtree_control"), wanted.joinToString(" ") { "+$it" }) }
                }
            }
        }
    }

    /**
     * Creates a group [name] with [limits]; a process joins it by writing its pid to [Cgroup.joinFiles].
     * An [accountingOnly] group (v1) spans only cpuacct: it counts CPU time and holds no limit.
     */
    fun create(name: String, limits: CgroupLimits, accountingOnly: Boolean = false): Cgroup {
        require(name.matches(Regex("[A-Za-z0-9._-]+"))) { "cgroup name '$name'" }
        prepare()
        val spans = if (accountingOnly && layout.version == CgroupVersion.V1) controllers.filter { it == "cpuacct" } else controllers
        val dirs = spans.associateWith { root(it).resolve(name) }
        try {
            dirs.values.forEach { fs.mkdir(it) }
            setUp(dirs, limits)
        } catch (e: Exception) {
            // a limit the kernel refuses (a CPU quota below its minimum, a memory limit below what is in use)
            // fails the cell; the group it half made goes with it, in every controller, not at the next run
            Cgroup(name, layout.version, dirs, fs).tearDown(e)
            throw e
        }
        return Cgroup(name, layout.version, dirs, fs)
    }

    private fun setUp(dirs: Map<String, Path>, limits: CgroupLimits) {
        val mems = parentMems()
        if (layout.version == CgroupVersion.V1 && "cpuset" in dirs) {
            // every v1 cpuset group needs CPUs and memory nodes before a process can join it
            val cpus = if (limits.cpus.isEmpty()) fs.read(root("cpuset").resolve("cpuset.cpus"))?.trim() else null
            fs.write(dirs.getValue("cpuset").resolve("cpuset.mems"), mems ?: "0")
            if (cpus != null) fs.write(dirs.getValue("cpuset").resolve("cpuset.cpus"), cpus)
        }
        write(dirs, limits, mems)
        if (idle) markIdle(dirs)
    }

    /**
     * A runner at idle priority keeps what it confines at idle priority: `cpu.idle` on its group in the controller that
     * schedules (v1 `cpu`, v2's one hierarchy), where the kernel has it (5.15 and later); elsewhere the group competes
     * at normal weight, as any group.
     */
    private fun markIdle(dirs: Map<String, Path>) {
        for (controller in listOf("cpu", "")) {
            val file = dirs[controller]?.resolve("cpu.idle") ?: continue
            if (fs.exists(file)) fs.write(file, "1")
        }
    }

    /** The lab's root cpuset's memory nodes (v1), which a group's CPU set needs beside it; null on v2. */
    private fun parentMems(): String? = if (layout.version == CgroupVersion.V1) fs.read(root("cpuset").resolve("cpuset.mems"))?.trim() else null

    /** Writes [limits]' files into the group's folders [dirs], naming the file and value the kernel refused. */
    private fun write(dirs: Map<String, Path>, limits: CgroupLimits, mems: String?) {
        for ((controller, file, value) in limits.writes(layout.version, mems)) {
            val dir = dirs[controller] ?: continue
            try {
                fs.write(dir.resolve(file), value)
            } catch (e: IOException) {
                throw IOException("could not set ${dir.resolve(file)} to $value: ${e.message}", e)
            }
        }
    }

    /**
     * Applies [limits]' CPU quota and CPU set to [group], made without them (`profile.start-cpus: all`): its processes
     * and their threads are held by them from now on (a v1 cpuset group's CPUs move every task in it). Its memory limit
     * is not touched: that one held from the start.
     */
    fun limitCpus(group: Cgroup, limits: CgroupLimits) = write(group.dirs, limits.copy(memoryBytes = null), parentMems())

    /**
     * Moves threads [tids] (of a process in one of the lab's groups) back to this runner's own group in the controllers
     * that limit or count CPU (cpu, cpuacct, cpuset), where no limit of the lab's holds them; their process stays in
     * its group, memory included. Cgroup v1 only: v2 keeps every thread of a process in its process's group (threaded
     * subtrees aside), so there it moves nothing and answers false.
     */
    fun releaseThreads(tids: List<Int>): Boolean {
        if (layout.version == CgroupVersion.V2) return false
        for (controller in CPU_CONTROLLERS.filter { it in controllers }) {
            val tasks = layout.base(controller)!!.resolve("tasks")
            for (tid in tids) fs.write(tasks, tid.toString())
        }
        return true
    }

    /**
     * Removes every group the lab left behind (a run killed with SIGKILL cannot clean up): kills the
     * processes still in them first. Returns what it removed.
     */
    fun removeStale(kill: (Long) -> Unit, alive: (Long) -> Boolean = { ProcessHandle.of(it).isPresent }): List<String> {
        val removed = mutableListOf<String>()
        for (c in controllers) {
            val root = root(c)
            if (!fs.exists(root)) continue
            for (dir in fs.children(root)) {
                // groups are named after the runner that made them; a live runner's groups are its own business
                val owner = OWNER.find(dir.fileName.toString())?.groupValues?.get(1)?.toLongOrNull()
                if (owner != null && alive(owner)) continue
                Cgroup(dir.fileName.toString(), layout.version, mapOf(c to dir), fs).remove(kill)
                removed += "$dir"
            }
        }
        return removed
    }
}

/** The v1 controllers that hold or count a thread's CPU. */
private val CPU_CONTROLLERS = listOf("cpu", "cpuacct", "cpuset")

/** Group names start with the runner's pid: `sb1234-7-app`, `probe-1234`. */
private val OWNER = Regex("^(?:sb|probe-)(\\d+)")

/** One group of the lab's, across the controllers it spans. */
class Cgroup(val name: String, val version: CgroupVersion, val dirs: Map<String, Path>, private val fs: CgroupFs) {

    /** The files a process writes its pid to, to join the group in every controller. */
    val joinFiles: List<Path> get() = dirs.values.map { it.resolve("cgroup.procs") }

    fun pids(): List<Long> = dirs.values.flatMap { dir ->
        fs.read(dir.resolve("cgroup.procs"))?.lines()?.mapNotNull { it.trim().toLongOrNull() } ?: emptyList()
    }.distinct()

    fun counters(): CgroupCounters = when (version) {
        CgroupVersion.V1 -> {
            val cpuStat = CgroupCounters.keyValues(dirs["cpu"]?.let { fs.read(it.resolve("cpu.stat")) })
            val oom = CgroupCounters.keyValues(dirs["memory"]?.let { fs.read(it.resolve("memory.oom_control")) })
            CgroupCounters(
                cpuUsageNs = dirs["cpuacct"]?.let { fs.read(it.resolve("cpuacct.usage"))?.trim()?.toLongOrNull() },
                periods = cpuStat["nr_periods"],
                throttledPeriods = cpuStat["nr_throttled"],
                throttledNs = cpuStat["throttled_time"],
                memoryPeakBytes = dirs["memory"]?.let { fs.read(it.resolve("memory.max_usage_in_bytes"))?.trim()?.toLongOrNull() },
                oomKills = oom["oom_kill"],
            )
        }
        CgroupVersion.V2 -> {
            val dir = dirs.getValue("")
            val cpuStat = CgroupCounters.keyValues(fs.read(dir.resolve("cpu.stat")))
            val events = CgroupCounters.keyValues(fs.read(dir.resolve("memory.events")))
            CgroupCounters(
                cpuUsageNs = cpuStat["usage_usec"]?.times(1000),
                periods = cpuStat["nr_periods"],
                throttledPeriods = cpuStat["nr_throttled"],
                throttledNs = cpuStat["throttled_usec"]?.times(1000),
                memoryPeakBytes = fs.read(dir.resolve("memory.peak"))?.trim()?.toLongOrNull(),
                oomKills = events["oom_kill"],
            )
        }
    }

    /** Removes what exists of a group that failed to set up (it holds no process yet); a failure to is added to [cause]. */
    internal fun tearDown(cause: Exception) {
        for (dir in dirs.values.reversed()) {
            if (fs.exists(dir)) runCatching { fs.rmdir(dir) }.onFailure { cause.addSuppressed(it) }
        }
    }

    /** Kills what is left in the group, then removes it; retries while the kernel finishes the kills. */
    fun remove(kill: (Long) -> Unit) {
        repeat(50) { attempt ->
            pids().forEach(kill)
            val left = dirs.values.filter { fs.exists(it) }
            left.forEach { runCatching { fs.rmdir(it) } }
            if (dirs.values.none { fs.exists(it) }) return
            Thread.sleep(if (attempt < 10) 20 else 100)
        }
        throw IOException("could not remove cgroup $name: ${dirs.values.filter { fs.exists(it) }} still in use by ${pids()}")
    }
}
