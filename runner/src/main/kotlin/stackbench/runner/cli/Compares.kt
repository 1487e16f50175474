package stackbench.runner.cli

import stackbench.runner.compare.CompareHtml
import stackbench.runner.compare.CompareText
import stackbench.runner.compare.Comparison
import stackbench.runner.compare.Comparisons
import stackbench.runner.results.AtomicFiles
import stackbench.runner.results.ResultsStore
import stackbench.runner.stats.Decisions
import java.nio.file.Files
import java.nio.file.Path

/** Reads two results folders, compares them, writes compare.html; returns the comparison and the text to print. */
object Compares {
    const val HTML = "compare.html"

    data class Written(val comparison: Comparison, val text: String, val html: Path)

    /** [out] defaults to B's folder/compare.html. */
    /** [request]: one named request of the runs' cells, compared alone (`--request`, [stackbench.runner.results.NamedRequests.run]). */
    fun write(a: Path, b: Path, out: Path? = null, threshold: Double = Decisions.THRESHOLD, request: String? = null): Written {
        fun read(p: Path) = ResultsStore.read(p).let { r -> request?.let { stackbench.runner.results.NamedRequests.run(r, it) } ?: r }
        val comparison = Comparisons.of(read(a), read(b), threshold)
        val target = out ?: (if (Files.isDirectory(b)) b else b.toAbsolutePath().parent).resolve(HTML)
        target.toAbsolutePath().parent?.let { Files.createDirectories(it) }
        AtomicFiles.write(target, CompareHtml.render(comparison))
        return Written(comparison, CompareText.render(comparison), target)
    }
}
