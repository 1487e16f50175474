package stackbench.runner.findings

import stackbench.runner.results.RunResult
import stackbench.runner.results.Sitting
import stackbench.runner.results.Sittings
import java.time.Duration
import java.time.Instant

/**
 * Where each published run came from, as docs/findings.md's `<!-- provenance -->` block: its id, when and on what
 * host it ran, the commit it ran from and whether the tree had uncommitted changes then, and what it cost: its cells
 * and their machine time (the ledger of the runs, generated so that it cannot drift from them). A run from a dirty tree
 * cannot be reproduced from its commit alone; `findings-run --publish` refuses such runs since 2026-11-29, and the
 * ones published before stay marked here. Pure, so the table is tested on fixtures and checked by `findings --check`.
 */
object Provenance {
    /** The table over [runs] (name → run), in name order, with a sentence that counts the dirty ones. */
    fun block(runs: Map<String, RunResult>): String = buildString {
        val dirty = runs.values.count { r -> Sittings.of(r).any { it.gitDirty != false } }
        appendLine(
            if (dirty == 0) "All ${runs.size} runs below were made from a clean tree at the commit each names."
            else "$dirty of the ${runs.size} runs below were made from a tree with uncommitted changes (or record no commit), so " +
                "their commit alone does not reproduce them; which paths differed is recorded only since 2026-11-29 " +
                "(`environment.gitChanges`). `findings-run --publish` no longer publishes such a run; these stay until re-run."
        )
        val total = runs.values.mapNotNull(::machineTime).fold(Duration.ZERO, Duration::plus)
        appendLine()
        appendLine("Their ${runs.values.sumOf { it.cells.size }} cells took ${hours(total)} of machine time together (each cell from its app's start to its stop, summed; a run resumed over several sittings counts each).")
        appendLine()
        appendLine("| run | id | started (UTC) | host | commit | tree | cells | machine time |")
        appendLine("|---|---|---|---|---|---|--:|--:|")
        for ((name, r) in runs.toSortedMap()) {
            val sittings = Sittings.of(r)
            val started = r.run.startedAt.take(16).replace('T', ' ')
            // a run resumed over several sittings names each host it met and each commit it ran from
            val host = Sittings.hosts(sittings).joinToString(" / ") + ", ${r.environment.logicalCpus} CPUs" +
                if (sittings.size > 1) " (${sittings.size} sittings)" else ""
            val commits = sittings.map { it.gitCommit?.take(10) ?: "none" }.distinct().joinToString(", ")
            appendLine("| `$name` | ${r.run.id} | $started | $host | $commits | ${tree(sittings)} | " +
                "${r.cells.size} | ${machineTime(r)?.let(::hours) ?: "–"} |")
        }
    }.trimEnd()

    /** The time [r]'s cells took, each from its start to its end, summed; null when no cell recorded both. */
    fun machineTime(r: RunResult): Duration? {
        val spans = r.cells.mapNotNull { c ->
            val (from, to) = (c.startedAt?.let(::instant) ?: return@mapNotNull null) to (c.finishedAt?.let(::instant) ?: return@mapNotNull null)
            Duration.between(from, to).takeIf { !it.isNegative }
        }
        return if (spans.isEmpty()) null else spans.fold(Duration.ZERO, Duration::plus)
    }

    /** `1 h 05 min`, `12 min`, `under a minute`. */
    fun hours(d: Duration): String {
        val minutes = (d.toSeconds() + 30) / 60
        return when {
            minutes == 0L -> "under a minute"
            minutes < 60 -> "$minutes min"
            else -> "${minutes / 60} h %02d min".format(java.util.Locale.ROOT, minutes % 60)
        }
    }

    private fun instant(s: String): Instant? = runCatching { Instant.parse(s) }.getOrNull()

    /** Clean when every sitting was; else the first sitting that was not, as it was. */
    private fun tree(sittings: List<Sitting>): String {
        val s = sittings.firstOrNull { it.gitDirty != false } ?: return "clean"
        return when (s.gitDirty) {
            null -> "**not recorded**"
            else -> "**uncommitted changes**" + (s.gitChanges?.let { c ->
                ": " + c.take(3).joinToString(", ") { "`" + it.trim().replace("|", "\\|") + "`" } + if (c.size > 3) ", and ${c.size - 3} more" else ""
            } ?: "")
        }
    }
}
