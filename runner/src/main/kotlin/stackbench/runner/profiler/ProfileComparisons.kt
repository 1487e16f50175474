package stackbench.runner.profiler

import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.FrameChangeRecord
import stackbench.runner.results.ProfileComparisonRecord
import stackbench.runner.results.RunResult
import stackbench.runner.suite.ProfilerMode
import java.nio.file.Files
import java.nio.file.Path

/**
 * Where the time went, for each decided-or-not comparison of a run whose two sides were profiled: each side's windows
 * merged (every window weighted alike), a ÷ b per frame ([ProfileDiff]), and two flame graphs, what grew and what
 * shrank, written under `profiles/` in the run's folder. Reads the cells' collapsed stacks; converts with [converter].
 */
class ProfileComparisons(private val converter: FlameConverter) {

    fun of(result: RunResult, dir: Path): List<ProfileComparisonRecord> = result.decisions.mapIndexedNotNull { i, d ->
        val a = side(result, d.a, dir)
        val b = side(result, d.b, dir)
        if (a.isEmpty() || b.isEmpty()) return@mapIndexedNotNull null
        val mode = a.first().summary.mode
        if ((a + b).any { it.summary.mode != mode }) return@mapIndexedNotNull null
        val diff = ProfileDiff(merge(a), meanCost(a, mode), merge(b), meanCost(b, mode))
        val folder = Path.of("profiles", "%02d-".format(i + 1) + d.name.replace(Regex("[^A-Za-z0-9._-]+"), "_").take(60))
        Files.createDirectories(dir.resolve(folder))
        val (grew, shrank) = diff.grewAndShrank()
        val unit = if (diff.perRequest) "ns of CPU per request" else "parts per million of the profile"
        val notes = mutableListOf<String>()
        val files = buildMap {
            for ((role, stacks) in listOf("grew" to grew, "shrank" to shrank)) {
                if (stacks.isEmpty()) continue
                val collapsed = dir.resolve(folder).resolve("$role.collapsed")
                Files.writeString(collapsed, ProfileDiff.collapsed(stacks))
                val html = collapsed.resolveSibling("$role.html")
                runCatching { converter.html(collapsed, null, null, "${d.name}: what $role from b to a ($unit)", html) }
                    .onSuccess { put(role, folder.resolve("$role.html").toString()) }
                    .onFailure { notes += "the flame graph of what $role was not drawn: ${it.message}" }
            }
        }
        if (!diff.perRequest) notes += "shares of each side's samples compared: a cost per request was not known on both sides"
        ProfileComparisonRecord(d.name, d.a, d.b, mode, diff.perRequest, a.size, b.size,
            diff.frames(TOP).map { FrameChangeRecord(it.frame, it.a, it.b, it.change) }, files, notes)
    }

    private class Profiled(val stacks: CollapsedStacks, val summary: ProfileSummary)

    /** The OK cells of [configKey] with a profile, read from their folders. */
    private fun side(result: RunResult, configKey: String, dir: Path): List<Profiled> = result.cells
        .filter { it.configKey == configKey && it.status == CellStatus.OK }
        .mapNotNull { c -> profiled(c, dir) }

    private fun profiled(c: CellResult, dir: Path): Profiled? {
        val probe = c.probes[PROFILE] ?: return null
        val file = probe.files["collapsed"]?.let { dir.resolve(it) }?.takeIf { Files.isRegularFile(it) } ?: return null
        val summary = probe.details?.let { runCatching { MAPPER.treeToValue(it, ProfileSummary::class.java) }.getOrNull() } ?: return null
        return Profiled(CollapsedStacks.parse(Files.readString(file), file.toString()), summary).takeIf { it.stacks.total > 0 }
    }

    /** Every window's shares averaged, as parts per million, so that a long window does not outweigh a short one. */
    private fun merge(side: List<Profiled>): CollapsedStacks {
        val sum = HashMap<String, Double>()
        for (p in side) for ((stack, share) in p.stacks.stackShares()) sum.merge(stack, share / side.size, Double::plus)
        return CollapsedStacks(sum.mapValues { Math.round(it.value * 1e6) })
    }

    /** The side's mean CPU per request, for a CPU profile whose every window knew it; else null. */
    private fun meanCost(side: List<Profiled>, mode: String): Double? {
        if (mode != ProfilerMode.CPU.id) return null
        val costs = side.map { it.summary.cpuMsPerRequest ?: return null }
        return costs.average()
    }

    companion object {
        const val PROFILE = "profile"
        const val TOP = 15
        private val MAPPER = stackbench.runner.results.Json.mapper
    }
}
