package stackbench.runner.host

import stackbench.contract.Stats
import stackbench.runner.isolation.Isolation
import stackbench.runner.isolation.Taskset
import java.nio.file.Files
import java.nio.file.Path

/**
 * The lab's observer inside an app, the threads of its stats side channel ([Stats.SERVER_THREADS]), taken out of the
 * app's CPU limits once the app is up and put on the load generator's CPUs, where the runner's own threads are
 * ([SelfAffinity]); on a machine the app shares, on every CPU. Inside the limits they queue for the CPU behind every
 * busy thread of the app and wait out the quota's throttling: beside Tomcat's 200 request threads counting primes
 * under a one-CPU quota, the channel's dispatcher spent 6.2 s of every 10 s in the run queue, and the runner missed
 * 67 % of its readings of a 60 s window (40 % with the two threads at nice -10, 5-22 % out of the limits;
 * docs/methodology.md). Out of them the app's cgroup also counts the app alone.
 */
object ObserverThreads {
    /** /proc cuts a thread's name to this many characters. */
    private const val COMM_LENGTH = 15

    /** The stats channel's threads among [threads] (thread id → name as /proc has it), in id order. */
    fun of(threads: Map<Int, String>): List<Int> {
        val names = Stats.SERVER_THREADS.map { it.take(COMM_LENGTH) }
        return threads.filterValues { it in names }.keys.sorted()
    }

    /**
     * Takes the stats channel's threads among [threads] out of the app's CPU limits ([Isolation.releaseThreads]) and
     * pins each to [cpus] (empty: left on every CPU) with [pin]; answers what was done, in words, for the record.
     */
    fun release(threads: Map<Int, String>, isolation: Isolation, cpus: List<Int>, pin: (List<String>) -> String? = Taskset::run): String {
        val tids = of(threads)
        val expected = Stats.SERVER_THREADS.size
        if (tids.size != expected) {
            return "in the app's limits: found ${tids.size} of its $expected threads (${Stats.SERVER_THREADS.joinToString()})"
        }
        val released = try {
            isolation.releaseThreads(tids)
        } catch (e: Exception) {
            return "in the app's limits: ${isolation.kind} refused to move threads $tids (${e.message})"
        }
        if (!released) return "in the app's limits: ${isolation.kind} keeps every thread of a process in its group"
        val where = if (cpus.isEmpty()) "every CPU" else "CPU ${cpus.sorted().joinToString(",")}"
        val refused = if (cpus.isEmpty()) emptyList() else tids.mapNotNull { tid -> pin(Taskset.oneThread(tid, cpus)) }
        if (refused.isNotEmpty()) return "out of the app's ${isolation.kind} limits, but not pinned to $where: ${refused.first()}"
        return "out of the app's limits, on $where (threads ${tids.joinToString()})"
    }

    /** Process [pid]'s threads, id → name, from /proc/PID/task/TID/comm; empty when the process cannot be read. */
    fun threadsOf(pid: Long): Map<Int, String> {
        val tasks = Path.of("/proc/$pid/task")
        val ids = runCatching { Files.list(tasks).use { s -> s.map { it.fileName.toString().toIntOrNull() }.toList().filterNotNull() } }
            .getOrDefault(emptyList())
        return ids.mapNotNull { tid ->
            runCatching { Files.readString(tasks.resolve("$tid/comm")).trim() }.getOrNull()?.let { tid to it }
        }.toMap()
    }
}
