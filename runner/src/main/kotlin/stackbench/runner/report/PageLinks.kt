package stackbench.runner.report

import java.net.URI

/**
 * The relative links of a Markdown or HTML page: the files a reader's click opens beside it. What `publish` copies
 * with a run, and what the docs' dead-link test checks. Pure.
 */
object PageLinks {
    private val FENCED = Regex("(?s)```.*?```")
    private val SCRIPT = Regex("(?is)<script\\b.*?</script>")
    private val CODE = Regex("`[^`\n]*`")
    private val MARKDOWN = Regex("""\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)""")
    private val HTML = Regex("""\b(?:href|src)\s*=\s*["']([^"']+)["']""", RegexOption.IGNORE_CASE)
    private val SCHEME = Regex("^[A-Za-z][A-Za-z0-9+.-]*:")

    /**
     * Each relative target once, in the order met, without its `#fragment` or `?query`, percent-decoded. Not relative:
     * a URL with a scheme (`https:`, `mailto:`, `data:`), a fragment of the page itself, a site-absolute path (`/x`).
     * Code (fenced blocks, inline spans, scripts) is not a link.
     */
    fun relative(text: String): List<String> {
        val prose = CODE.replace(SCRIPT.replace(FENCED.replace(text, ""), ""), "")
        return (MARKDOWN.findAll(prose) + HTML.findAll(prose)).map { it.groupValues[1] }
            .filterNot { SCHEME.containsMatchIn(it) || it.startsWith("#") || it.startsWith("/") }
            .map { decode(it.substringBefore('#').substringBefore('?')) }
            .filter { it.isNotEmpty() }
            .distinct().toList()
    }

    private fun decode(path: String): String = runCatching { URI(path).path }.getOrNull() ?: path
}
