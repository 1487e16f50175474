package stackbench.runner.cli

import stackbench.runner.report.HtmlReport
import stackbench.runner.report.MarkdownSummary
import stackbench.runner.results.AtomicFiles
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import java.nio.file.Files
import java.nio.file.Path

/** Where a report was written. */
data class ReportFiles(val html: Path, val markdown: Path)

/** Writes a run's report.html and summary.md from its results.json alone, so any past run can be re-rendered. */
object Reports {
    const val HTML = "report.html"
    const val MARKDOWN = "summary.md"

    /** [dir] is a results folder (or its results.json); the report goes beside results.json. */
    fun write(dir: Path): ReportFiles {
        val folder = if (Files.isDirectory(dir)) dir else (dir.toAbsolutePath().parent ?: dir)
        return write(ResultsStore.read(dir), folder)
    }

    fun write(result: RunResult, folder: Path): ReportFiles {
        Files.createDirectories(folder)
        val html = folder.resolve(HTML)
        AtomicFiles.write(html, HtmlReport.render(result))
        return ReportFiles(html, writeSummary(result, folder))
    }

    /** The summary alone (summary.md), as a published record (docs/runs/<run>) keeps it beside its results. */
    fun writeSummary(result: RunResult, folder: Path): Path =
        folder.resolve(MARKDOWN).also { AtomicFiles.write(it, MarkdownSummary.render(result)) }
}
