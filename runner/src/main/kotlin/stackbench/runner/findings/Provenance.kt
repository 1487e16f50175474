package stackbench.runner.findings

import stackbench.runner.results.RunResult

/**
 * Where each published run came from, as docs/findings.md's `<!-- provenance -->` block: its id, when and on what
 * host it ran, the commit it ran from and whether the tree had uncommitted changes then. A run from a dirty tree
 * cannot be reproduced from its commit alone; `findings-run --publish` refuses such runs since 2026-11-29, and the
 * ones published before stay marked here. Pure, so the table is tested on fixtures and checked by `findings --check`.
 */
object Provenance {
    /** The table over [runs] (name → run), in name order, with a sentence that counts the dirty ones. */
    fun block(runs: Map<String, RunResult>): String = buildString {
        val dirty = runs.values.count { it.environment.gitDirty != false }
        appendLine(
            if (dirty == 0) "All ${runs.size} runs below were made from a clean tree at the commit each names."
            else "$dirty of the ${runs.size} runs below were made from a tree with uncommitted changes (or record no commit), so " +
                "their commit alone does not reproduce them; which paths differed is recorded only since 2026-11-29 " +
                "(`environment.gitChanges`). `findings-run --publish` no longer publishes such a run; these stay until re-run."
        )
        appendLine()
        appendLine("| run | id | started (UTC) | host | commit | tree |")
        appendLine("|---|---|---|---|---|---|")
        for ((name, r) in runs.toSortedMap()) {
            val env = r.environment
            val started = r.run.startedAt.take(16).replace('T', ' ')
            appendLine("| `$name` | ${r.run.id} | $started | ${env.cpuModel.trim()}, ${env.logicalCpus} CPUs | ${env.gitCommit?.take(10) ?: "none"} | ${tree(r)} |")
        }
    }.trimEnd()

    private fun tree(r: RunResult): String {
        val env = r.environment
        return when (env.gitDirty) {
            false -> "clean"
            null -> "**not recorded**"
            true -> "**uncommitted changes**" + (env.gitChanges?.let { c ->
                ": " + c.take(3).joinToString(", ") { "`" + it.trim().replace("|", "\\|") + "`" } + if (c.size > 3) ", and ${c.size - 3} more" else ""
            } ?: "")
        }
    }
}
