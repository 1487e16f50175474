package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import kotlin.io.path.extension
import kotlin.io.path.name

/** Every relative link in docs/ (its Markdown and the published runs' pages) and in the README opens a file that is there. */
class DocsLinksTest {
    private val root = Path.of("..").toAbsolutePath().normalize()

    @Test
    fun `no link in docs or the README is dead`() {
        val pages = Files.walk(root.resolve("docs")).use { s -> s.filter { Files.isRegularFile(it) && it.extension in setOf("md", "html") }.toList() } +
            listOf(root.resolve("README.md"))
        val dead = pages.flatMap { page ->
            PageLinks.relative(Files.readString(page)).filterNot { Files.exists(page.parent.resolve(it).normalize()) }
                .map { root.relativize(page).toString() to it }
        }
        assertThat(pages.map { it.name }).contains("findings.md", "README.md", "report.html", "profile.html")
        assertThat(dead).describedAs("dead links").isEmpty()
    }
}
