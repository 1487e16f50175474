package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.browser.Browser
import stackbench.runner.findings.ClaimsParser
import stackbench.runner.findings.FindingsUpdate
import java.nio.file.Files
import java.nio.file.Path

class ReportCommand : CliktCommand(name = "report") {
    override fun help(context: Context) = """
        Writes DIR/report.html (charts and tables, one self-contained file that opens offline) and DIR/summary.md
        (the key table in Markdown) from DIR/results.json alone. Every run does this at its end; this re-renders
        any past run.
    """.trimIndent()

    private val dir by argument("DIR", help = "a results folder written by ./stackbench run (or its results.json)").path()
    private val screenshot by option("--screenshot", metavar = "PNG",
        help = "also open report.html in headless Chromium and save a full-page screenshot here (needs chromium)").path(canBeDir = false)
    private val width by option("--width", help = "the browser window's width for --screenshot, in CSS pixels").wholeNumber(stackbench.runner.suite.Ranges.PIXELS)
    private val height by option("--height", help = "with --screenshot, only the top of the page, this many CSS pixels (default: the whole page)").wholeNumber(stackbench.runner.suite.Ranges.PIXELS)

    override fun run() {
        val files = try {
            Reports.write(dir)
        } catch (e: IllegalArgumentException) {
            throw BadInput(e.message ?: "cannot read $dir")
        }
        println("report:  ${files.html}")
        println("summary: ${files.markdown}")
        claimsReading(dir, Home.path)?.let { println("note:    docs/findings.md reads this run; ./stackbench findings puts its claims' tables back into summary.md (findings --check fails until then)") }
        screenshot?.let { png ->
            val chromium = Browser.find() ?: throw BadInput("--screenshot needs Chromium: apt-get install -y chromium")
            val shot = Browser(chromium).use { it.open(files.html, width ?: 1366).screenshot(png, height) }
            println("screenshot: $png (${shot.charts} charts drawn in ${"%.0f".format(shot.renderMs)} ms)")
        }
    }

    companion object {
        /** The run's name when [dir] is a run published under [home] (docs/runs/NAME) that docs/claims.yaml reads; null otherwise. */
        internal fun claimsReading(dir: Path, home: Path): String? {
            val folder = (if (Files.isDirectory(dir)) dir else dir.parent ?: return null).toAbsolutePath().normalize()
            val claimsFile = home.resolve("docs/claims.yaml")
            if (folder.parent != home.resolve("docs/runs") || !Files.isRegularFile(claimsFile)) return null
            val claims = runCatching { ClaimsParser.parse(Files.readString(claimsFile), "docs/claims.yaml") }.getOrNull() ?: return null
            return folder.fileName.toString().takeIf { it in FindingsUpdate.runNames(claims) }
        }
    }
}
