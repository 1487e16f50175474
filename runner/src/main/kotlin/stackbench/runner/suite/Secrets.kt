package stackbench.runner.suite

/**
 * Values a suite takes from the environment: `${env:NAME}` in any string (a header, a URL's query, an app's argument
 * or environment, a body). The suite, its records and its reports keep the placeholder; the value is put in only
 * where the lab hands a request or a command to something outside itself (the HTTP client, a process's argv and
 * environment, a load driver's script that reads the variable itself), and a run's folder is swept of any value
 * that an app or a tool wrote back ([redact]).
 *
 * A path or a URL cannot hold `${`, `}` or `:` where the placeholder stands, so inside a URI it travels in its
 * percent-encoded form, `%24%7Benv:NAME%7D` ([uriSafe]); [expand] puts the value in for either form, percent-encoded
 * in the second.
 */
object Secrets {
    private const val NAME = "[A-Za-z_][A-Za-z0-9_]*"
    /** A well-formed placeholder; group 1 is the variable's name. */
    val PLACEHOLDER = Regex("\\$\\{env:($NAME)}")
    private val ENCODED = Regex("%24%7Benv(?::|%3A)($NAME)%7D", RegexOption.IGNORE_CASE)
    /** Anything that starts like a placeholder, to tell a malformed one from text. */
    private val OPENING = Regex("\\$\\{env:[^}]*}?")

    /** The variables [text] names, in order of first use. */
    fun names(text: String): List<String> =
        (PLACEHOLDER.findAll(text) + ENCODED.findAll(text)).map { it.groupValues[1] }.distinct().toList()

    /** What is wrong with the placeholders of [text] against [env], one line each: malformed, or a variable not set. */
    fun problems(text: String, env: Map<String, String>): List<String> = buildList {
        for (m in OPENING.findAll(text)) {
            if (!PLACEHOLDER.matches(m.value)) add("'${m.value}' is not a placeholder: write \${env:NAME}, NAME of letters, digits and '_'")
        }
        for (name in names(text)) {
            when {
                name !in env -> add("\${env:$name}: the environment variable $name is not set")
                env.getValue(name).isEmpty() -> add("\${env:$name}: the environment variable $name is empty")
            }
        }
    }

    /** [text] with every placeholder, in either form, replaced by its variable's value; a variable not set stays. */
    fun expand(text: String, env: Map<String, String> = System.getenv()): String {
        if (!text.contains("env:", ignoreCase = true) && !text.contains("env%3A", ignoreCase = true)) return text
        // a transform's result is taken literally: a value's `$` and `\` are no group references
        val plain = PLACEHOLDER.replace(text) { m -> env[m.groupValues[1]] ?: m.value }
        return ENCODED.replace(plain) { m -> env[m.groupValues[1]]?.let(::percentEncode) ?: m.value }
    }

    /** [text] for a URI: each placeholder in its percent-encoded form, so the URI parses and keeps it. */
    fun uriSafe(text: String): String = PLACEHOLDER.replace(text) { m -> "%24%7Benv:${m.groupValues[1]}%7D" }

    /** [text] with every value of [names] in [env] (the secrets in use) written back as its placeholder. */
    fun redact(text: String, names: Collection<String>, env: Map<String, String> = System.getenv()): String =
        values(names, env).entries.fold(text) { t, (name, value) ->
            t.replace(value, "\${env:$name}").replace(percentEncode(value), "%24%7Benv:$name%7D")
        }

    /** The values to look for: each named variable that is set, the longest first (one value may hold another). */
    fun values(names: Collection<String>, env: Map<String, String> = System.getenv()): Map<String, String> =
        names.mapNotNull { n -> env[n]?.takeIf { it.isNotEmpty() }?.let { n to it } }.sortedByDescending { it.second.length }.toMap()

    /**
     * [text] as an expression of a script language whose [literal] quotes a string, [variable] reads an environment
     * variable and [join] concatenates: the script reads each value when it runs, so the file holds none. [uri]: the
     * text is (part of) a URI, whose placeholders are percent-encoded, and so must their values be ([encode] wraps).
     */
    fun expression(text: String, literal: (String) -> String, variable: (String) -> String, join: String, encode: ((String) -> String)? = null): String {
        val pattern = Regex("${PLACEHOLDER.pattern}|${ENCODED.pattern}", RegexOption.IGNORE_CASE)
        val parts = mutableListOf<String>()
        var at = 0
        for (m in pattern.findAll(text)) {
            if (m.range.first > at) parts += literal(text.substring(at, m.range.first))
            val name = m.groupValues[1].ifEmpty { m.groupValues[2] }
            val read = variable(name)
            parts += if (m.value.startsWith("%") && encode != null) encode(read) else read
            at = m.range.last + 1
        }
        if (at < text.length || parts.isEmpty()) parts += literal(text.substring(at))
        return parts.joinToString(join)
    }

    /** RFC 3986 unreserved characters kept, every other byte percent-encoded: safe in a path segment and a query. */
    fun percentEncode(value: String): String = buildString {
        for (b in value.toByteArray(Charsets.UTF_8)) {
            val c = b.toInt() and 0xff
            if (c.toChar().isLetterOrDigit() && c < 0x80 || c.toChar() in "-._~") append(c.toChar()) else append('%').append("%02X".format(c))
        }
    }
}
