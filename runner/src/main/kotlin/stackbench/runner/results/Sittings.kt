package stackbench.runner.results

/**
 * The sittings of a run ([RunInfo.sittings]): a run stopped part-way and resumed later (`--resume`) may meet another
 * host, a faster or slower one, or a clone at another commit, and its cells then compare across them. The record keeps
 * each sitting, the resume says what changed, and publishing refuses a run that any sitting made from uncommitted
 * changes or from another commit than the first ([unpublishable]). Pure.
 */
object Sittings {
    /** The sitting that begins at [startedAt] in [env]. */
    fun of(env: Environment, startedAt: String) =
        Sitting(startedAt, env.hostname, env.cpuModel.trim(), env.gitCommit, env.gitDirty, env.gitChanges)

    /**
     * The sittings of a run that begins now ([earlier] null) or resumes [earlier], with this one, in [env] from
     * [startedAt], last. An earlier record without sittings (made before they were recorded) gives its environment as
     * its one sitting, from when it began: what the record holds, though it is its last sitting's.
     */
    fun next(earlier: RunResult?, env: Environment, startedAt: String): List<Sitting> {
        val before = when {
            earlier == null -> emptyList()
            earlier.run.sittings.isNotEmpty() -> earlier.run.sittings
            else -> listOf(of(earlier.environment, earlier.run.startedAt))
        }
        return before + of(env, startedAt)
    }

    /** [r]'s sittings; for a run before they were recorded, its environment as its one sitting. */
    fun of(r: RunResult): List<Sitting> = r.run.sittings.ifEmpty { listOf(of(r.environment, r.run.startedAt)) }

    /**
     * How [later] differs from the run's [first] sitting, in words (`host A (cpu) → B (cpu)`, `commit a → b`,
     * `tree clean → uncommitted changes`); empty when it ran on the same host from the same tree.
     */
    fun differences(first: Sitting, later: Sitting): List<String> = listOfNotNull(
        ("host ${first.hostname} (${first.cpuModel}) → ${later.hostname} (${later.cpuModel})")
            .takeIf { first.hostname != later.hostname || first.cpuModel != later.cpuModel },
        "commit ${first.gitCommit?.take(10) ?: "none"} → ${later.gitCommit?.take(10) ?: "none"}".takeIf { first.gitCommit != later.gitCommit },
        "tree ${tree(first)} → ${tree(later)}".takeIf { first.gitDirty != later.gitDirty },
    )

    /** The distinct CPU models of [sittings], in the order they first ran. */
    fun hosts(sittings: List<Sitting>): List<String> = sittings.map { it.cpuModel }.distinct()

    /**
     * Why a run with [sittings] cannot be published, or null when every sitting ran from a clean tree at one recorded
     * commit: a run is reproduced from one commit, so one whose code or tree changed between its sittings is not.
     */
    fun unpublishable(sittings: List<Sitting>): String? {
        val first = sittings.firstOrNull() ?: return "records no sitting"
        sittings.forEachIndexed { i, s ->
            // a run of one sitting speaks of itself ("was made ..."), a resumed one names the sitting
            val which = if (sittings.size == 1) "" else "sitting ${i + 1} of ${sittings.size} (${s.startedAt.take(16).replace('T', ' ')}) "
            when {
                s.gitCommit == null || s.gitDirty == null -> return "${which}records no git commit (made outside a clone?)"
                s.gitDirty -> return "${which}was made from a tree with uncommitted changes at ${s.gitCommit.take(10)}" +
                    (s.gitChanges?.let { ": " + it.take(5).joinToString(", ") { c -> c.trim() } + if (it.size > 5) ", ..." else "" } ?: "")
                s.gitCommit != first.gitCommit -> return "${which}was made at commit ${s.gitCommit.take(10)}, where the run began at " +
                    "${first.gitCommit?.take(10)} (resume a run in the clone it began in)"
            }
        }
        return null
    }

    private fun tree(s: Sitting) = when (s.gitDirty) { false -> "clean"; true -> "uncommitted changes"; null -> "not recorded" }
}
