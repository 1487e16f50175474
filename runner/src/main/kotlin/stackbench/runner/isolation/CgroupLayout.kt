package stackbench.runner.isolation

import java.nio.file.Path

enum class CgroupVersion(val id: String) { V1("cgroup-v1"), V2("cgroup-v2") }

/**
 * Where this machine's cgroup controllers are mounted, and this process's own cgroup in each: read from
 * /proc/mounts and /proc/self/cgroup. A pure parse, so it is tested on recorded files.
 */
data class CgroupLayout(
    val version: CgroupVersion,
    /** v1: controller → its own directory (mount point + this process's path). v2: "" → the base directory. */
    val bases: Map<String, Path>,
) {
    fun base(controller: String): Path? = if (version == CgroupVersion.V2) bases[""] else bases[controller]

    companion object {
        /** The v1 controllers the lab uses: limits (cpu, cpuset, memory) and accounting (cpuacct). */
        val V1_CONTROLLERS = listOf("cpu", "cpuacct", "cpuset", "memory")

        fun parse(procMounts: String, procSelfCgroup: String): CgroupLayout? {
            val mounts = procMounts.lines().mapNotNull { line ->
                val f = line.split(' ')
                if (f.size < 4) null else Mount(f[2], Path.of(f[1]), f[3].split(','))
            }
            val own = procSelfCgroup.lines().mapNotNull { line ->
                val parts = line.split(':', limit = 3)
                if (parts.size == 3) parts[1] to parts[2] else null
            }
            val v1 = mounts.filter { it.type == "cgroup" }
            val v1Bases = V1_CONTROLLERS.associateWith { controller ->
                val mount = v1.firstOrNull { controller in it.options } ?: return@associateWith null
                val path = own.firstOrNull { controller in it.first.split(',') }?.second ?: "/"
                mount.point.resolve(path.trimStart('/'))
            }
            if (listOf("cpu", "cpuset", "memory").all { v1Bases[it] != null }) {
                @Suppress("UNCHECKED_CAST")
                return CgroupLayout(CgroupVersion.V1, v1Bases.filterValues { it != null } as Map<String, Path>)
            }
            // pure v2: one unified hierarchy holding the controllers. The lab's groups live under its root,
            // which is exempt from the rule that a group with child controllers may hold no processes.
            val unified = mounts.firstOrNull { it.type == "cgroup2" && it.point == Path.of("/sys/fs/cgroup") }
                ?: mounts.firstOrNull { it.type == "cgroup2" }
            return unified?.let { CgroupLayout(CgroupVersion.V2, mapOf("" to it.point)) }
        }
    }

    private data class Mount(val type: String, val point: Path, val options: List<String>)
}

/** Limits for one group. Null or empty means not limited. */
data class CgroupLimits(val cpuQuota: Double?, val cpus: List<Int>, val memoryBytes: Long?) {
    companion object {
        val NONE = CgroupLimits(null, emptyList(), null)
        const val PERIOD_US = 100_000L
    }

    /** The files to write, in order, per controller ("" for v2), for this group's limits. */
    fun writes(version: CgroupVersion, parentCpusetMems: String?): List<Triple<String, String, String>> = buildList {
        when (version) {
            CgroupVersion.V1 -> {
                if (cpuQuota != null) {
                    add(Triple("cpu", "cpu.cfs_period_us", PERIOD_US.toString()))
                    add(Triple("cpu", "cpu.cfs_quota_us", (cpuQuota * PERIOD_US).toLong().toString()))
                }
                if (cpus.isNotEmpty()) {
                    add(Triple("cpuset", "cpuset.mems", parentCpusetMems ?: "0"))
                    add(Triple("cpuset", "cpuset.cpus", cpus.joinToString(",")))
                }
                if (memoryBytes != null) add(Triple("memory", "memory.limit_in_bytes", memoryBytes.toString()))
            }
            CgroupVersion.V2 -> {
                if (cpuQuota != null) add(Triple("", "cpu.max", "${(cpuQuota * PERIOD_US).toLong()} $PERIOD_US"))
                if (cpus.isNotEmpty()) add(Triple("", "cpuset.cpus", cpus.joinToString(",")))
                if (memoryBytes != null) {
                    add(Triple("", "memory.max", memoryBytes.toString()))
                    add(Triple("", "memory.swap.max", "0"))
                }
            }
        }
    }
}

/** A group's counters at one moment. Null where the controller does not say. */
data class CgroupCounters(
    val cpuUsageNs: Long?,
    val periods: Long?,
    val throttledPeriods: Long?,
    val throttledNs: Long?,
    val memoryPeakBytes: Long?,
    val oomKills: Long?,
) {
    companion object {
        /** cpu.stat (v1 or v2), memory.oom_control or memory.events: `key value` lines. */
        fun keyValues(text: String?): Map<String, Long> = text?.lines()?.mapNotNull { line ->
            val parts = line.trim().split(Regex("\\s+"))
            if (parts.size == 2) parts[1].toLongOrNull()?.let { parts[0] to it } else null
        }?.toMap() ?: emptyMap()
    }
}
