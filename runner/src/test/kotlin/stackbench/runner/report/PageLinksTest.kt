package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class PageLinksTest {
    @Test
    fun `a Markdown page's relative links, each once, without fragment or query`() {
        val md = """
            See [the flame graph](cells/001-a/profile.html) and [what grew](profiles/01-x/grew.html#top "title").
            Again [the flame graph](cells/001-a/profile.html), the [method](../methodology.md#repetitions), a <a href="report.html?x=1">page</a>.
        """.trimIndent()
        assertThat(PageLinks.relative(md)).containsExactly(
            "cells/001-a/profile.html", "profiles/01-x/grew.html", "../methodology.md", "report.html")
    }

    @Test
    fun `absolute URLs, fragments of the page, site paths and code are not relative links`() {
        val md = """
            [a](https://example.org/x.html) [b](mailto:a@b.c) [c](#verdict) [d](/etc/passwd) ![e](data:image/png;base64,AA)
            `[f](inline/code.md)`
            ```
            [g](fenced/code.md)
            ```
            <script>var s = '<a href="script/code.html">';</script>
            <img src="shot.png">
        """.trimIndent()
        assertThat(PageLinks.relative(md)).containsExactly("shot.png")
    }

    @Test
    fun `a percent-encoded link names the file it opens`() {
        assertThat(PageLinks.relative("[x](a%20b/c.md)")).containsExactly("a b/c.md")
    }
}
