package stackbench.runner.host

import stackbench.runner.isolation.Taskset

/**
 * Keeps the runner's own threads off the CPUs a cell gives its app. The app's cpuset binds the app, not the
 * runner: without this, the runner's JIT compiler, garbage collector, sampler and result writing could run on
 * the app's CPU and take time from it inside the measured window. Before each cell the affinity of every
 * thread of this JVM is set to the cell's driver CPUs (the app's CPUs' complement), or to every CPU when the
 * cell shares the machine (a quota without a CPU set); threads started later inherit it. Children started
 * afterwards inherit it too and are then placed by their own confinement (a cpuset group, `taskset`).
 *
 * [apply] sets the affinity and answers null, or answers why it could not; the first such reason is kept in
 * [problem] and the runner goes on unpinned.
 */
class SelfAffinity(private val machineCpus: Int, private val apply: (List<Int>) -> String?) {
    private var current: List<Int>? = null

    /** Why the runner could not pin itself, if it ever failed. */
    var problem: String? = null
        private set

    /** Places the runner for a cell with [placement]; answers true when the affinity changed. */
    fun placeFor(placement: Placement): Boolean {
        val wanted = if (placement.shared || placement.driverCpus.isEmpty()) (0 until machineCpus).toList() else placement.driverCpus.sorted()
        if (wanted == current || problem != null) return false
        val failure = apply(wanted)
        if (failure != null) {
            problem = failure
            return false
        }
        current = wanted
        return true
    }

    companion object {
        /** Sets the affinity of every thread of process [pid] with `taskset -a -p -c`. */
        fun taskset(pid: Long = ProcessHandle.current().pid()): (List<Int>) -> String? = { cpus -> Taskset.run(Taskset.everyThreadOf(pid, cpus)) }
    }
}
