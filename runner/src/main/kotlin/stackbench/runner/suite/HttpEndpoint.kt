package stackbench.runner.suite

import tools.jackson.databind.ObjectMapper

/**
 * An endpoint the suite declares itself (`kind: http`): for a team's own app, or any path of a built-in one. Its
 * path and body may name parameters (`/orders/{id}`), each swept over its values: one configuration per combination.
 */
data class HttpEndpointSpec(
    /** How cells and comparisons name it: `http-<name>` and the parameters' values. */
    val name: String,
    val method: String,
    val path: String,
    /** Each parameter with its values, in the suite's order. */
    val params: List<Pair<String, List<String>>>,
    val headers: Map<String, String>,
    /** The request body (inline, or read from the suite's `body-file`); null: none. */
    val body: String?,
    val status: Int,
    val check: BodyCheck?,
    /** The most requests the app serves at once (a pool of 200), for the Little's-law ceiling; null: not claimed. */
    val concurrencyLimit: Int?,
    /** Values the requests draw per request (`feed:`): not swept, one configuration for all of them. */
    val feeds: List<Feed> = emptyList(),
    /** The named requests of a `mix:`, by weight; empty for one request ([method], [path] and the rest are then the first's). */
    val mix: List<RequestTemplate> = emptyList(),
    /** Line and column of its `feed:` or `mix:` key, where a driver that cannot send them is refused. */
    val trafficAt: Pair<Int, Int>? = null,
) {
    /** One request per combination of parameter values, `{name}` filled in path, body, headers and check. */
    fun requests(): List<HttpRequestSpec> = combinations(params).map { values ->
        fun fill(text: String) = values.fold(text) { t, (k, v) -> t.replace("{$k}", v) }
        val traffic = when {
            mix.isNotEmpty() -> Traffic(mix.map { it.fill(::fill) }, feeds, mixed = true)
            feeds.isNotEmpty() -> Traffic(listOf(RequestTemplate(name, method, path, headers, body, status, check).fill(::fill)), feeds, mixed = false)
            else -> null
        }
        HttpRequestSpec(name, method, fill(path), values, headers.mapValues { fill(it.value) }, body?.let(::fill), status, check?.fill(::fill), concurrencyLimit, traffic)
    }

    private fun combinations(params: List<Pair<String, List<String>>>): List<List<Pair<String, String>>> =
        params.fold(listOf(emptyList())) { acc, (name, values) -> acc.flatMap { prefix -> values.map { prefix + (name to it) } } }
}

/** One resolved request of an [HttpEndpointSpec]: what a cell sends and how its answer is checked. */
data class HttpRequestSpec(
    val name: String,
    val method: String,
    val path: String,
    val values: List<Pair<String, String>>,
    val headers: Map<String, String>,
    val body: String?,
    val status: Int,
    val check: BodyCheck?,
    val concurrencyLimit: Int?,
    /** Its fed values and mixed requests, filled in as the load is sent; null for one fixed request. */
    val traffic: Traffic? = null,
) {
    /** e.g. `http-orders-id7`. */
    val label: String get() = "http-$name" + values.joinToString("") { (k, v) -> "-$k${v.replace(Regex("[^A-Za-z0-9._]+"), "_")}" }
}

/** How a declared endpoint's answer body is checked before any load. */
sealed interface BodyCheck {
    /** What is wrong with [body], or null when it passes. */
    fun problem(body: String, json: ObjectMapper): String?

    fun fill(f: (String) -> String): BodyCheck

    data class Exact(val text: String) : BodyCheck {
        override fun problem(body: String, json: ObjectMapper) = if (body == text) null else "expected exactly '${excerpt(text)}', got '${excerpt(body)}'"
        override fun fill(f: (String) -> String) = Exact(f(text))
    }

    data class Contains(val text: String) : BodyCheck {
        override fun problem(body: String, json: ObjectMapper) = if (body.contains(text)) null else "expected a body containing '${excerpt(text)}', got '${excerpt(body)}'"
        override fun fill(f: (String) -> String) = Contains(f(text))
    }

    data class Matches(val pattern: String) : BodyCheck {
        override fun problem(body: String, json: ObjectMapper) =
            if (Regex(pattern).containsMatchIn(body)) null else "expected a body matching /$pattern/, got '${excerpt(body)}'"
        override fun fill(f: (String) -> String) = Matches(f(pattern))
    }

    /** The value at a JSON Pointer (RFC 6901, e.g. `/order/quantity`) equals [equals], compared as JSON text (`2` = 2, `"a"` = a). */
    data class JsonAt(val pointer: String, val equals: String) : BodyCheck {
        override fun problem(body: String, json: ObjectMapper): String? {
            val root = runCatching { json.readTree(body) }.getOrNull() ?: return "expected JSON, got '${excerpt(body)}'"
            val node = root.at(pointer)
            if (node.isMissingNode) return "expected a value at $pointer, found none in '${excerpt(body)}'"
            val actual = if (node.isValueNode) node.asString() else node.toString()
            return if (actual == equals) null else "expected $pointer = $equals, got $actual"
        }
        override fun fill(f: (String) -> String) = JsonAt(pointer, f(equals))
    }

    companion object {
        fun excerpt(text: String, max: Int = 120) = if (text.length <= max) text else text.take(max) + "…"
    }
}

/** The headers a request sends with its [body]: the declared ones, led by `Content-Type: application/json` when a body has none declared. */
object RequestHeaders {
    const val CONTENT_TYPE = "Content-Type"

    fun of(body: String?, declared: Map<String, String>): Map<String, String> =
        if (body != null && contentType(declared) == null) mapOf(CONTENT_TYPE to "application/json") + declared else declared

    /** The Content-Type among [headers] (any case), or null. */
    fun contentType(headers: Map<String, String>): String? = headers.entries.firstOrNull { isContentType(it.key) }?.value

    /** [headers] but their Content-Type, for a tool that takes it apart (oha's `-T`). */
    fun withoutContentType(headers: Map<String, String>): Map<String, String> = headers.filterKeys { !isContentType(it) }

    private fun isContentType(name: String) = name.equals(CONTENT_TYPE, ignoreCase = true)
}
