package stackbench.runner.isolation

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import java.io.IOException
import java.nio.file.Path

/** An in-memory cgroup filesystem: directories and files, as the kernel would show them. */
open class FakeCgroupFs : CgroupFs {
    val dirs = mutableSetOf<Path>()
    val files = mutableMapOf<Path, String>()
    val readOnly = mutableSetOf<Path>()
    /** Files whose write the kernel refuses, with its error (EINVAL for a quota below the minimum). */
    val refused = mutableMapOf<Path, String>()
    /** Every write, in order (a `tasks` file takes one id a write). */
    val written = mutableListOf<Pair<Path, String>>()

    override fun exists(path: Path) = path in dirs || path in files
    override fun mkdir(path: Path) {
        dirs.add(path)
    }
    override fun rmdir(path: Path) {
        if (files[path.resolve("cgroup.procs")]?.isNotBlank() == true) throw IOException("busy")
        dirs.remove(path)
        files.keys.removeIf { it.startsWith(path) }
    }
    override fun read(path: Path) = files[path]
    override fun write(path: Path, value: String) {
        if (path in readOnly) throw IOException("Permission denied")
        refused[path]?.let { throw IOException(it) }
        files[path] = value
        written += path to value
    }
    override fun children(path: Path) = dirs.filter { it.parent == path }
}

class CgroupsTest {
    private fun resource(name: String) = javaClass.getResource("/isolation/$name")!!.readText()

    @Test
    fun `a cgroup v1 machine is read from its mounts and own groups`() {
        val layout = CgroupLayout.parse(resource("mounts-v1-hybrid.txt"), resource("self-cgroup-v1.txt"))!!
        assertThat(layout.version).isEqualTo(CgroupVersion.V1)
        assertThat(layout.base("cpu")).isEqualTo(Path.of("/sys/fs/cgroup/cpu"))
        assertThat(layout.base("cpuacct")).isEqualTo(Path.of("/sys/fs/cgroup/cpuacct"))
        // this process's own memory group is nested: the lab's groups go beneath it
        assertThat(layout.base("memory").toString()).startsWith("/sys/fs/cgroup/memory/process_api/")
    }

    @Test
    fun `a cgroup v2 machine is read from its unified mount`() {
        val layout = CgroupLayout.parse(resource("mounts-v2.txt"), resource("self-cgroup-v2.txt"))!!
        assertThat(layout.version).isEqualTo(CgroupVersion.V2)
        assertThat(layout.base("cpu")).isEqualTo(Path.of("/sys/fs/cgroup"))
    }

    @Test
    fun `no cgroups mounted means no layout`() {
        assertThat(CgroupLayout.parse("proc /proc proc rw 0 0\n", "")).isNull()
    }

    @Test
    fun `limits become the files a container runtime would write`() {
        val limits = CgroupLimits(cpuQuota = 1.5, cpus = listOf(1), memoryBytes = 1L shl 30)
        assertThat(limits.writes(CgroupVersion.V1, "0")).containsExactly(
            Triple("cpu", "cpu.cfs_period_us", "100000"),
            Triple("cpu", "cpu.cfs_quota_us", "150000"),
            Triple("cpuset", "cpuset.mems", "0"),
            Triple("cpuset", "cpuset.cpus", "1"),
            Triple("memory", "memory.limit_in_bytes", "1073741824"),
        )
        assertThat(limits.writes(CgroupVersion.V2, null)).containsExactly(
            Triple("", "cpu.max", "150000 100000"),
            Triple("", "cpuset.cpus", "1"),
            Triple("", "memory.max", "1073741824"),
            Triple("", "memory.swap.max", "0"),
        )
    }

    private val v1 = CgroupLayout(CgroupVersion.V1, CgroupLayout.V1_CONTROLLERS.associateWith { Path.of("/cg/$it") })

    @Test
    fun `a v1 group is set up in every controller and torn down`() {
        val fs = FakeCgroupFs()
        fs.files[Path.of("/cg/cpuset/cpuset.cpus")] = "0-1"
        fs.files[Path.of("/cg/cpuset/cpuset.mems")] = "0"
        val group = Cgroups(v1, fs).create("sb1-3-app", CgroupLimits(1.0, listOf(1), 512L shl 20))
        assertThat(group.joinFiles.map { it.toString() }).containsExactlyInAnyOrder(
            "/cg/cpu/stackbench/sb1-3-app/cgroup.procs", "/cg/cpuacct/stackbench/sb1-3-app/cgroup.procs",
            "/cg/cpuset/stackbench/sb1-3-app/cgroup.procs", "/cg/memory/stackbench/sb1-3-app/cgroup.procs",
        )
        assertThat(fs.files[Path.of("/cg/cpu/stackbench/sb1-3-app/cpu.cfs_quota_us")]).isEqualTo("100000")
        assertThat(fs.files[Path.of("/cg/cpuset/stackbench/cpuset.cpus")]).isEqualTo("0-1") // the lab's root got the parent's CPUs
        assertThat(fs.files[Path.of("/cg/cpuset/stackbench/sb1-3-app/cpuset.cpus")]).isEqualTo("1")
        assertThat(fs.files[Path.of("/cg/cpuset/stackbench/sb1-3-app/cpuset.mems")]).isEqualTo("0")
        assertThat(fs.files[Path.of("/cg/memory/stackbench/sb1-3-app/memory.limit_in_bytes")]).isEqualTo("536870912")

        fs.files[Path.of("/cg/cpu/stackbench/sb1-3-app/cgroup.procs")] = "4242\n"
        val killed = mutableListOf<Long>()
        group.remove { pid -> killed += pid; fs.files[Path.of("/cg/cpu/stackbench/sb1-3-app/cgroup.procs")] = "" }
        assertThat(killed).containsExactly(4242L)
        assertThat(fs.dirs.filter { it.fileName.toString() == "sb1-3-app" }).isEmpty()
    }

    @Test
    fun `a group made without CPU limits gets them later, its memory limit untouched`() {
        val fs = FakeCgroupFs()
        fs.files[Path.of("/cg/cpuset/cpuset.cpus")] = "0-1"
        fs.files[Path.of("/cg/cpuset/cpuset.mems")] = "0"
        val cgroups = Cgroups(v1, fs)
        val group = cgroups.create("sb1-4-app", CgroupLimits(null, emptyList(), 512L shl 20))
        assertThat(fs.files[Path.of("/cg/cpuset/stackbench/sb1-4-app/cpuset.cpus")]).isEqualTo("0-1") // every CPU while it starts
        assertThat(fs.files[Path.of("/cg/cpu/stackbench/sb1-4-app/cpu.cfs_quota_us")]).isNull()
        fs.written.clear()
        cgroups.limitCpus(group, CgroupLimits(0.5, listOf(1), 512L shl 20))
        assertThat(fs.written.map { (path, value) -> "$path $value" }).containsExactly(
            "/cg/cpu/stackbench/sb1-4-app/cpu.cfs_period_us 100000", "/cg/cpu/stackbench/sb1-4-app/cpu.cfs_quota_us 50000",
            "/cg/cpuset/stackbench/sb1-4-app/cpuset.mems 0", "/cg/cpuset/stackbench/sb1-4-app/cpuset.cpus 1",
        )
        fs.refused[Path.of("/cg/cpuset/stackbench/sb1-4-app/cpuset.cpus")] = "Invalid argument"
        assertThatThrownBy { cgroups.limitCpus(group, CgroupLimits(null, listOf(7), null)) }
            .isInstanceOf(IOException::class.java).hasMessageContaining("cpuset.cpus to 7").hasMessageContaining("Invalid argument")
    }

    @Test
    fun `a runner at idle CPU priority marks its groups cpu idle where the kernel has the file, and no other runner does`() {
        val fs = FakeCgroupFs()
        fs.files[Path.of("/cg/cpuset/cpuset.cpus")] = "0-1"
        fs.files[Path.of("/cg/cpuset/cpuset.mems")] = "0"
        // the kernel makes cpu.idle in every new group of the cpu controller (5.15 and later)
        fs.files[Path.of("/cg/cpu/stackbench/sb1-5-app/cpu.idle")] = "0"
        fs.files[Path.of("/cg/cpu/stackbench/sb1-6-app/cpu.idle")] = "0"
        Cgroups(v1, fs, idle = true).create("sb1-5-app", CgroupLimits(1.0, listOf(1), 512L shl 20))
        assertThat(fs.files[Path.of("/cg/cpu/stackbench/sb1-5-app/cpu.idle")]).isEqualTo("1")
        assertThat(fs.written.map { it.first.toString() }.filter { it.endsWith("cpu.idle") }).containsExactly("/cg/cpu/stackbench/sb1-5-app/cpu.idle")
        Cgroups(v1, fs).create("sb1-6-app", CgroupLimits(1.0, listOf(1), 512L shl 20))
        assertThat(fs.files[Path.of("/cg/cpu/stackbench/sb1-6-app/cpu.idle")]).isEqualTo("0")
        // an older kernel without the file: nothing written, the group made
        val old = FakeCgroupFs()
        old.files[Path.of("/cg/cpuset/cpuset.cpus")] = "0-1"
        Cgroups(v1, old, idle = true).create("sb1-7-app", CgroupLimits(1.0, listOf(1), null))
        assertThat(old.written.map { it.first.toString() }).noneMatch { it.endsWith("cpu.idle") }
    }

    @Test
    fun `the scheduling policy is field 41 of proc stat, counted after the command name however it is spelt`() {
        val idle = "7460 (cat) R 7456 7456 26156 0 -1 4194304 170 0 2 0 0 0 0 0 20 0 1 0 7265191 3133440 372 18446744073709551615 " +
            "94355198447616 94355198467497 140727864863904 0 0 0 0 0 0 0 0 0 17 1 0 5 0 0 0 94355198483504 94355198485120 " +
            "94356184461312 140727864867462 140727864867482 140727864867482 140727864868843 0"
        assertThat(SchedPolicy.parse(idle)).isEqualTo(SchedPolicy.IDLE)
        assertThat(SchedPolicy.parse(idle.replace("(cat)", "(a (b) c)").replace(" 17 1 0 5 ", " 17 1 0 0 "))).isEqualTo(0)
        assertThat(SchedPolicy.parse("12 (short) S 1 2")).isNull()
    }

    @Test
    fun `threads released from the lab's groups go to the runner's own groups of the CPU controllers, v1 only`() {
        val fs = FakeCgroupFs()
        assertThat(Cgroups(v1, fs).releaseThreads(listOf(101, 102))).isTrue()
        assertThat(fs.written.map { (path, value) -> "$path $value" }).containsExactly(
            "/cg/cpu/tasks 101", "/cg/cpu/tasks 102", "/cg/cpuacct/tasks 101", "/cg/cpuacct/tasks 102",
            "/cg/cpuset/tasks 101", "/cg/cpuset/tasks 102",
        )
        val v2 = CgroupLayout(CgroupVersion.V2, mapOf("" to Path.of("/cg")))
        val untouched = FakeCgroupFs()
        assertThat(Cgroups(v2, untouched).releaseThreads(listOf(101))).isFalse()
        assertThat(untouched.written).isEmpty()
    }

    @Test
    fun `an accounting group spans only cpuacct and limits nothing`() {
        val fs = FakeCgroupFs()
        val group = Cgroups(v1, fs).create("sb1-3-driver", CgroupLimits.NONE, accountingOnly = true)
        assertThat(group.joinFiles.map { it.toString() }).containsExactly("/cg/cpuacct/stackbench/sb1-3-driver/cgroup.procs")
        fs.files[Path.of("/cg/cpuacct/stackbench/sb1-3-driver/cpuacct.usage")] = "2500000000\n"
        assertThat(group.counters().cpuUsageNs).isEqualTo(2_500_000_000L)
    }

    @Test
    fun `counters are read from cpu stat, cpuacct and memory`() {
        val fs = FakeCgroupFs()
        val group = Cgroups(v1, fs).create("sb1-1-app", CgroupLimits(1.0, emptyList(), null))
        fs.files[Path.of("/cg/cpu/stackbench/sb1-1-app/cpu.stat")] = "nr_periods 120\nnr_throttled 30\nthrottled_time 1500000000\nnr_bursts 0\n"
        fs.files[Path.of("/cg/memory/stackbench/sb1-1-app/memory.max_usage_in_bytes")] = "300000000"
        fs.files[Path.of("/cg/memory/stackbench/sb1-1-app/memory.oom_control")] = "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n"
        assertThat(group.counters()).isEqualTo(CgroupCounters(null, 120, 30, 1_500_000_000, 300_000_000, 1))
    }

    @Test
    fun `a limit the kernel refuses is named with its file and value`() {
        val fs = FakeCgroupFs()
        fs.readOnly.add(Path.of("/cg/memory/stackbench/x/memory.limit_in_bytes"))
        assertThatThrownBy { Cgroups(v1, fs).create("x", CgroupLimits(null, emptyList(), 1L shl 30)) }
            .hasMessage("could not set /cg/memory/stackbench/x/memory.limit_in_bytes to 1073741824: Permission denied")
    }

    private fun groupDirs(fs: FakeCgroupFs, name: String) = fs.dirs.filter { it.fileName.toString() == name }

    @Test
    fun `a CPU quota the kernel refuses fails the group and removes it from every v1 controller`() {
        val fs = FakeCgroupFs()
        fs.files[Path.of("/cg/cpuset/cpuset.cpus")] = "0-1"
        fs.files[Path.of("/cg/cpuset/cpuset.mems")] = "0"
        // below the kernel's minimum quota (1 ms): writing cpu.cfs_quota_us fails with EINVAL
        fs.refused[Path.of("/cg/cpu/stackbench/sb1-2-app/cpu.cfs_quota_us")] = "Invalid argument"
        assertThatThrownBy { Cgroups(v1, fs).create("sb1-2-app", CgroupLimits(0.001, listOf(1), 512L shl 20)) }
            .hasMessage("could not set /cg/cpu/stackbench/sb1-2-app/cpu.cfs_quota_us to 100: Invalid argument")
        assertThat(groupDirs(fs, "sb1-2-app")).isEmpty()
        assertThat(fs.dirs).contains(Path.of("/cg/cpu/stackbench")) // the lab's roots stay, for the next group
    }

    @Test
    fun `a refused limit on cgroup v2 leaves no group either`() {
        val fs = FakeCgroupFs()
        val v2 = CgroupLayout(CgroupVersion.V2, mapOf("" to Path.of("/cg2")))
        fs.refused[Path.of("/cg2/stackbench/sb1-2-app/memory.max")] = "Device or resource busy"
        assertThatThrownBy { Cgroups(v2, fs).create("sb1-2-app", CgroupLimits(1.0, emptyList(), 1L shl 20)) }
            .hasMessage("could not set /cg2/stackbench/sb1-2-app/memory.max to 1048576: Device or resource busy")
        assertThat(groupDirs(fs, "sb1-2-app")).isEmpty()
    }

    @Test
    fun `a group that cannot be made in one controller is removed from the ones it was made in`() {
        val fs = object : FakeCgroupFs() {
            override fun mkdir(path: Path) {
                if (path == Path.of("/cg/memory/stackbench/sb1-2-app")) throw IOException("No space left on device")
                super.mkdir(path)
            }
        }
        assertThatThrownBy { Cgroups(v1, fs).create("sb1-2-app", CgroupLimits(1.0, emptyList(), null)) }.hasMessage("No space left on device")
        assertThat(groupDirs(fs, "sb1-2-app")).isEmpty()
    }

    @Test
    fun `a failed set-up that also cannot remove its group says so`() {
        val fs = object : FakeCgroupFs() {
            override fun rmdir(path: Path) = throw IOException("Device or resource busy")
        }
        fs.refused[Path.of("/cg2/stackbench/g/cpu.max")] = "Invalid argument"
        val v2 = CgroupLayout(CgroupVersion.V2, mapOf("" to Path.of("/cg2")))
        assertThatThrownBy { Cgroups(v2, fs).create("g", CgroupLimits(0.001, emptyList(), null)) }
            .hasMessage("could not set /cg2/stackbench/g/cpu.max to 100 100000: Invalid argument")
            .satisfies({ e -> assertThat(e.suppressed.map { it.message }).containsExactly("Device or resource busy") })
    }

    @Test
    fun `stale groups of dead runners are removed, a live runner's are left alone`() {
        val fs = FakeCgroupFs()
        val cgroups = Cgroups(v1, fs)
        cgroups.create("sb111-1-app", CgroupLimits.NONE)
        cgroups.create("sb222-1-app", CgroupLimits.NONE)
        val removed = cgroups.removeStale(kill = {}, alive = { it == 222L })
        assertThat(removed).allMatch { it.endsWith("sb111-1-app") }.hasSize(4)
        assertThat(fs.dirs.map { it.fileName.toString() }).contains("sb222-1-app").doesNotContain("sb111-1-app")
    }

    @Test
    fun `a confined command joins its groups before it runs, and is pinned after joining`() {
        val fs = FakeCgroupFs()
        val group = Cgroups(v1, fs).create("g", CgroupLimits.NONE, accountingOnly = true)
        assertThat(Confinement(group, listOf(0)).wrap(listOf("oha", "-c", "10"))).containsExactly(
            "/bin/sh", "-c", "echo $$ > '/cg/cpuacct/stackbench/g/cgroup.procs' && exec \"$@\"", "stackbench-join",
            "taskset", "-c", "0", "oha", "-c", "10",
        )
        assertThat(Confinement.pinned(listOf(1)).wrap(listOf("java"))).containsExactly("taskset", "-c", "1", "java")
        assertThat(Confinement.none().wrap(listOf("java"))).containsExactly("java")
    }
}
