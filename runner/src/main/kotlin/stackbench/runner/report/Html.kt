package stackbench.runner.report

import stackbench.runner.results.Json

/**
 * Escaping for everything a report takes from results: names, labels, reasons and log tails are data, never
 * markup. [text] for element content and attribute values; [json] for data embedded in a script element.
 */
object Html {
    /** Text safe in element content and in a double- or single-quoted attribute value. */
    fun text(s: String?): String {
        if (s == null) return ""
        val out = StringBuilder(s.length + 16)
        for (ch in s) when (ch) {
            '&' -> out.append("&amp;")
            '<' -> out.append("&lt;")
            '>' -> out.append("&gt;")
            '"' -> out.append("&quot;")
            '\'' -> out.append("&#39;")
            else -> out.append(ch)
        }
        return out.toString()
    }

    /**
     * [value] as JSON safe inside `<script type="application/json">`: `<`, `>` and `&` are written as
     * `\u003c`, `\u003e`, `\u0026` (they can only occur inside JSON strings, where the escapes read back as
     * the same characters), so no `</script>` or `<!--` can end or change the element; U+2028 and U+2029 too.
     */
    fun json(value: Any?): String = scriptSafe(Json.mapper.writeValueAsString(value))

    fun scriptSafe(json: String): String {
        val out = StringBuilder(json.length + 64)
        for (ch in json) when (ch) {
            '<' -> out.append("\\u003c")
            '>' -> out.append("\\u003e")
            '&' -> out.append("\\u0026")
            '\u2028' -> out.append("\\u2028")
            '\u2029' -> out.append("\\u2029")
            else -> out.append(ch)
        }
        return out.toString()
    }

    /** A script's own text (the chart library, the renderer) made unable to close its element early. */
    fun inlineScript(js: String): String = js.replace(Regex("</(script)", RegexOption.IGNORE_CASE), "<\\\\/$1")

    /**
     * A page's beginning, the same for every page the lab writes, up to the opening `<main>`: UTF-8, the content
     * security policy [csp], a viewport for phones, [title] (escaped here) and [style] (the page's own CSS, as is).
     */
    fun pageHead(title: String, csp: String, style: String): String = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="$csp">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="stackbench">
<title>${text(title)}</title>
<style>
$style</style>
</head>
<body>
<main>
"""

    /**
     * A whole page with charts: [pageHead], [body], a footer of [footer] (HTML, as is) and the chart library's notice,
     * then [data] (the charts' specs and what the renderer needs, as JSON) and the two scripts that draw them, each
     * allowed by its hash in the content security policy and nothing else; [style]: the page's CSS beyond the lab's.
     */
    fun chartedPage(title: String, body: String, footer: String, data: Any?, style: String = ""): String {
        val echarts = inlineScript(Assets.echarts)
        val script = inlineScript(Assets.script)
        val csp = "default-src 'none'; script-src ${hash(echarts)} ${hash(script)}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
        return pageHead(title, csp, Assets.css + style) + """$body
<footer>$footer
Charts drawn with Apache ECharts ${Assets.ECHARTS_VERSION}, inlined under the Apache License 2.0. ${text(Assets.echartsNotice.replace('\n', ' '))}</footer>
</main>
<script type="application/json" id="sb-data">${json(data)}</script>
<script>$echarts</script>
<script>$script</script>
</body>
</html>
"""
    }

    private fun hash(script: String) =
        "'sha256-" + java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-256").digest(script.toByteArray(Charsets.UTF_8))) + "'"

    /** A chart's place in a page: its caption (title and note) and the element report.js draws [spec] into, at its height. */
    fun figure(spec: ChartSpec): String {
        val note = spec.note?.let { "<small>${text(it)}</small>" } ?: ""
        val style = spec.height?.let { " style=\"height: ${it}px\"" } ?: ""
        return """<figure><figcaption>${text(spec.title)}$note</figcaption><div class="chart" id="${text(spec.id)}"$style role="img" aria-label="${text(spec.title)}"></div></figure>"""
    }

    /** An id or class fragment made of safe characters only. */
    fun slug(s: String): String = s.lowercase().replace(Regex("[^a-z0-9]+"), "-").trim('-').ifEmpty { "x" }
}
