package stackbench.runner.profiler

import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ProfileOverheadRecord
import stackbench.runner.results.RunResult

/**
 * What a profiler mode costs, as a run measured it: each comparison whose a side was profiled in one mode (every OK
 * cell of it) and whose b side was not profiled at all (suites/profile-overhead.yaml lists one configuration under
 * each mode and once with `profiler: none`): the decision's throughput ratio a ÷ b, its interval and its relation.
 * Pure: from results.json alone.
 */
object ProfileOverhead {

    /** One record per mode, from [result]'s decisions; a mode compared twice keeps its first comparison. */
    fun of(result: RunResult): List<ProfileOverheadRecord> = result.decisions.mapNotNull { d ->
        if (d.figure != "throughput") return@mapNotNull null
        val a = ok(result, d.a)
        val b = ok(result, d.b)
        if (a.isEmpty() || b.isEmpty() || b.any { it.probes.containsKey(ProfileComparisons.PROFILE) }) return@mapNotNull null
        val modes = a.map { mode(it) ?: return@mapNotNull null }.distinct()
        if (modes.size != 1) return@mapNotNull null
        ProfileOverheadRecord(modes.single(), d.name, d.a, d.b, d.ratio, d.low, d.high, d.relation, d.decided, d.threshold,
            result.run.id, result.environment.hostname, result.environment.cpuModel)
    }.distinctBy { it.mode }

    private fun ok(result: RunResult, configKey: String): List<CellResult> =
        result.cells.filter { it.configKey == configKey && it.status == CellStatus.OK }

    /** The mode of a cell's profile, or null without one. */
    private fun mode(c: CellResult): String? = c.probes[ProfileComparisons.PROFILE]?.details?.get("mode")?.takeUnless { it.isNull }?.asString()
}
