package stackbench.runner.cli

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
     * (results.json.gz), its summary and suite. A run missing or not finished is named and left as published before.
     */
    fun publish(runs: List<String>, from: Path, to: Path) {
        for (run in runs) {
            val dir = from.resolve(run)
            if (!Files.isRegularFile(dir.resolve(ResultsStore.JSON_FILE))) {
                println("not published: $run has no results in $dir")
                continue
            }
            val status = try { ResultsStore.read(dir).run.status } catch (e: IllegalArgumentException) { throw BadInput("${e.message}") }
            if (status != RunStatus.COMPLETE) {
                println("not published: $run is ${status.name.lowercase()} in $dir; finish it first (findings-run $run resumes it)")
                continue
            }
            val target = Files.createDirectories(to.resolve(run))
            PublishedRecord.copy(dir.resolve(ResultsStore.JSON_FILE), target.resolve(ResultsStore.GZIP_FILE))
            BESIDE.map { dir.resolve(it) }.filter { Files.isRegularFile(it) }.forEach { Files.copy(it, target.resolve(it.fileName), StandardCopyOption.REPLACE_EXISTING) }
            println("published $target")
        }
    }
}
