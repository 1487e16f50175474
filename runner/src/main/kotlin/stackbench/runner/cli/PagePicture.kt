package stackbench.runner.cli

import stackbench.runner.browser.Browser
import stackbench.runner.results.AtomicFiles
import java.nio.file.Files
import java.nio.file.Path

/**
 * A page the lab rendered, as a static picture where one is needed (a Markdown document cannot hold a script): drawn
 * by the page's own script in headless Chromium, the browser the report's tests use, and saved as a PNG. The chart in
 * the picture is the one every view draws, by the same code.
 */
object PagePicture {
    /** Draws [html] [width] CSS pixels wide and writes the whole page to [png]; fails naming Chromium when it is not installed. */
    fun write(html: String, png: Path, width: Int) {
        val chromium = Browser.find() ?: throw IllegalStateException("Chromium is not installed (chromium on the PATH): ./stackbench doctor --fix installs it")
        val page = Files.createTempFile("stackbench-picture", ".html")
        val shot = Files.createTempFile("stackbench-picture", ".png")
        try {
            Files.writeString(page, html)
            Browser(chromium).use { it.open(page, width, 600).screenshot(shot) }
            AtomicFiles.write(png, Files.readAllBytes(shot))
        } finally {
            Files.deleteIfExists(page)
            Files.deleteIfExists(shot)
        }
    }
}
