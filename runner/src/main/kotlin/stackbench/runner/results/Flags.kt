package stackbench.runner.results

import kotlin.math.roundToInt

/** The flags a finished cell carries beside the figures they affect. Pure: computed from what was measured. */
object Flags {
    /** Over this share of its CPUs the load generator, not the app, may be the limit. */
    const val CLIENT_BOUND_SHARE = 0.90

    /** Throttled in more than this share of the quota periods: the quota, not the work, shaped the figures. (A few throttled periods happen even well under the quota: CFS hands out runtime in slices.) */
    const val THROTTLED_SHARE = 0.05

    /** Two warm-up slices in a row further apart than this: the app had not settled. */
    const val STEADY_WITHIN = 0.05

    fun of(
        measured: LoadResult?, resources: ResourceSummary?, sharesCpus: Boolean, isolation: String, warmupSteps: List<Double> = emptyList(),
    ): List<Flag> = buildList {
        if (measured != null) {
            if (measured.errorCount > 0) {
                val kinds = measured.errors.entries.joinToString(", ") { "${it.value} ${it.key}" }
                add(Flag("errors", "${measured.errorCount} failed requests (${pct(measured.errorRate, 2)}): $kinds", "throughput"))
            }
            if (!measured.latencyCorrected) {
                add(Flag("closed-model", "closed-model latency: a request is timed from when it was sent, and none is sent while " +
                    "every connection waits, so stalls are under-counted (coordinated omission)", "latency"))
            }
        }
        if (resources != null) {
            val driver = resources.driverCpuShare
            if (driver != null && driver > CLIENT_BOUND_SHARE) {
                add(Flag("client-bound", "the load generator used ${pct(driver)} of its CPUs: it may have been the limit", "throughput"))
            }
            val periods = resources.periods
            val throttled = resources.throttledPeriods
            if (periods != null && throttled != null && periods > 0 && throttled.toDouble() / periods > THROTTLED_SHARE) {
                add(Flag("throttled", "the CPU quota throttled the app in $throttled of $periods periods " +
                    "(${"%.0f".format(resources.throttledMs ?: 0.0)} ms in all)", "throughput"))
            }
            if ((resources.oomKills ?: 0) > 0) add(Flag("oom", "the memory limit killed a process ${resources.oomKills} time(s)", "throughput"))
        }
        if (warmupSteps.size >= 2) {
            val (a, b) = warmupSteps.takeLast(2)
            if (a > 0 && kotlin.math.abs(b - a) / a > STEADY_WITHIN) {
                add(Flag("unsteady", "the warm-up ended before the app settled: its last two slices ran at " +
                    "${a.roundToInt()} and ${b.roundToInt()} req/s; the measured window may include warm-up (JIT compilation)", "throughput"))
            }
        }
        if (sharesCpus) add(Flag("shared-cpus", "the app shared CPUs with the load generator (no CPU set)", "throughput"))
        if (isolation == "taskset") add(Flag("no-cgroup", "no cgroup: CPUs pinned with taskset, no quota and no memory limit", "other"))
    }

    private fun pct(x: Double, decimals: Int = 0): String = if (decimals == 0) "${(x * 100).roundToInt()} %" else "%.${decimals}f %%".format(x * 100)
}
