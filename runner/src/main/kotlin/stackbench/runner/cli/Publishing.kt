package stackbench.runner.cli

import stackbench.runner.results.Environment
import stackbench.runner.results.PublishedRecord
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption

/** `findings-run --publish`: the finished runs copied to where `findings` reads them (docs/runs/<run>/). */
object FindingsPublish {
    /** The files of a published run besides its compressed record. */
    private val BESIDE = listOf("summary.md", "suite.yaml")

    /**
     * Copies each of [runs] that finished in [from] (`<run>/results.json`) to [to]`/<run>/`: the record compressed
     * (results.json.gz), its summary and suite. A run missing, not finished, or made from a tree with uncommitted
     * changes (or outside git) is named and left as published before: a published run is one that its commit reproduces.
     */
    fun publish(runs: List<String>, from: Path, to: Path) {
        for (run in runs) {
            val dir = from.resolve(run)
            if (!Files.isRegularFile(dir.resolve(ResultsStore.JSON_FILE))) {
                println("not published: $run has no results in $dir")
                continue
            }
            val result = try { ResultsStore.read(dir) } catch (e: IllegalArgumentException) { throw BadInput("${e.message}") }
            val status = result.run.status
            if (status != RunStatus.COMPLETE) {
                println("not published: $run is ${status.name.lowercase()} in $dir; finish it first (findings-run $run resumes it)")
                continue
            }
            unpublishable(result.environment)?.let { why ->
                println("not published: $run $why; commit, then run it again (findings-run $run --out another folder)")
                continue
            }
            val target = Files.createDirectories(to.resolve(run))
            PublishedRecord.copy(dir.resolve(ResultsStore.JSON_FILE), target.resolve(ResultsStore.GZIP_FILE))
            BESIDE.map { dir.resolve(it) }.filter { Files.isRegularFile(it) }.forEach { Files.copy(it, target.resolve(it.fileName), StandardCopyOption.REPLACE_EXISTING) }
            println("published $target")
        }
    }

    /** Why a run made in [env] cannot be published, or null when its tree was clean at a recorded commit. */
    fun unpublishable(env: Environment): String? = when {
        env.gitCommit == null || env.gitDirty == null -> "records no git commit (made outside a clone?)"
        env.gitDirty -> "was made from a tree with uncommitted changes at ${env.gitCommit.take(10)}" +
            (env.gitChanges?.let { ": " + it.take(5).joinToString(", ") { c -> c.trim() } + if (it.size > 5) ", ..." else "" } ?: "")
        else -> null
    }
}
