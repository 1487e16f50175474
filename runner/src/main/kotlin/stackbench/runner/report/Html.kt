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

    /** An id or class fragment made of safe characters only. */
    fun slug(s: String): String = s.lowercase().replace(Regex("[^a-z0-9]+"), "-").trim('-').ifEmpty { "x" }
}
