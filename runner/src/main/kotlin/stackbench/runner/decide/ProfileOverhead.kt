package stackbench.runner.decide

import stackbench.runner.profiler.ProfileComparisons
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Processes
import stackbench.runner.results.ProfileOverheadRecord
import stackbench.runner.results.RunResult
import stackbench.runner.stats.BandDecision
import stackbench.runner.stats.PairedRatio
import kotlin.math.ln

/**
 * What a profiler mode costs, as a run measured it, in one of two designs. Pure: from results.json alone.
 * - **Alternating windows** ([alternating], the one suites/profile-overhead.yaml uses): a configuration profiled with
 *   `alternate: true` has every second window of each process profiled; each profiled window's throughput against
 *   the unprofiled windows beside it in the same process is one pair, and the pairs give the ratio and its interval
 *   ([PairedRatio]). What differs between processes (the JIT's own level, ±15 % here) falls on both sides of a pair alike.
 * - **Between processes** ([compared]): a comparison whose a side was profiled in one mode (every OK cell of it) and
 *   whose b side was not profiled at all: the decision's throughput ratio a ÷ b, its interval and its relation.
 *
 * A mode measured both ways keeps its alternating record.
 */
object ProfileOverhead {
    /** The practical band of an alternating measurement: a profile that costs less than 5 % of the throughput is "the same". */
    const val BAND = 0.05
    const val ALTERNATING = "alternating windows"
    const val PROCESSES = "between processes"

    /** One record per mode: an alternating measurement with pairs, else the first comparison, else an alternating one without a pair (saying so). */
    fun of(result: RunResult): List<ProfileOverheadRecord> {
        val alternating = alternating(result)
        return (alternating.filter { (it.pairs ?: 0) > 0 } + compared(result) + alternating).distinctBy { it.mode }
    }

    /**
     * Each configuration with profiled and unprofiled windows in its processes: one pair per profiled window that
     * counts (OK, no disqualifying flag) with at least one unprofiled neighbour in its process that counts, its log
     * ratio against the mean log of its neighbours.
     */
    fun alternating(result: RunResult): List<ProfileOverheadRecord> = result.cells.groupBy { it.configKey }.mapNotNull { (configKey, cells) ->
        if (cells.none { it.probes.containsKey(ProfileComparisons.PROFILE) } || cells.none { unprofiled(it) }) return@mapNotNull null
        val modes = cells.mapNotNull { mode(it) }.distinct()
        if (modes.size != 1) return@mapNotNull null
        val logRatios = mutableListOf<Double>()
        val processes = mutableSetOf<String>()
        for ((process, windows) in cells.groupBy { Processes.of(it) }) {
            val ordered = windows.sortedBy { it.repetition }
            for ((i, w) in ordered.withIndex()) {
                if (mode(w) == null || !counts(w)) continue
                val beside = listOfNotNull(ordered.getOrNull(i - 1), ordered.getOrNull(i + 1)).filter { unprofiled(it) && counts(it) }
                if (beside.isEmpty()) continue
                logRatios += ln(w.window.measured!!.throughput) - beside.map { ln(it.window.measured!!.throughput) }.average()
                processes += process
            }
        }
        val interval = PairedRatio.interval(logRatios, inflation = PairedRatio.SHARED_NEIGHBOURS)
        val decision = BandDecision.decide(interval, BAND)
        ProfileOverheadRecord(modes.single(), ALTERNATING, "$configKey (profiled windows)", "$configKey (the unprofiled windows beside them)",
            interval.ratio, interval.low, interval.high, decision.relation.id, decision.decided, BAND,
            result.run.id, result.environment.hostname, result.environment.cpuModel,
            design = ALTERNATING, pairs = logRatios.size, processes = processes.size, why = decision.why)
    }

    /** A window whose throughput counts, by the one counting rule ([Counting]), with a rate above 0 to take a logarithm of. */
    private fun counts(c: CellResult): Boolean = Counting.counts(c, Figure.THROUGHPUT) && (c.window.measured?.throughput ?: 0.0) > 0

    private fun unprofiled(c: CellResult): Boolean = !c.probes.containsKey(ProfileComparisons.PROFILE)

    /** One record per mode, from [result]'s decisions; a mode compared twice keeps its first comparison. */
    fun compared(result: RunResult): List<ProfileOverheadRecord> = result.decisions.mapNotNull { d ->
        if (d.figure != "throughput") return@mapNotNull null
        val a = ok(result, d.a)
        val b = ok(result, d.b)
        if (a.isEmpty() || b.isEmpty() || b.any { it.probes.containsKey(ProfileComparisons.PROFILE) }) return@mapNotNull null
        val modes = a.map { mode(it) ?: return@mapNotNull null }.distinct()
        if (modes.size != 1) return@mapNotNull null
        ProfileOverheadRecord(modes.single(), d.name, d.a, d.b, d.decision.ratio, d.decision.low, d.decision.high, d.decision.relation.id, d.decided, d.decision.threshold,
            result.run.id, result.environment.hostname, result.environment.cpuModel, design = PROCESSES)
    }.distinctBy { it.mode }

    private fun ok(result: RunResult, configKey: String): List<CellResult> =
        result.cells.filter { it.configKey == configKey && it.status == CellStatus.OK }

    /** The mode of a cell's profile, or null without one. */
    private fun mode(c: CellResult): String? = c.probes[ProfileComparisons.PROFILE]?.details?.get("mode")?.takeUnless { it.isNull }?.asString()
}
