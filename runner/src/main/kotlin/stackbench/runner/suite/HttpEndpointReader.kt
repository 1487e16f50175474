package stackbench.runner.suite

import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.YamlMap
import java.nio.file.Files
import java.nio.file.Path

/**
 * Reads a declared endpoint (`kind: http`): `name`, `method`, `path` with `{param}`s, `params` (each a list of values
 * or a range `a..b`), `headers`, `body` or `body-file` (relative to the suite's folder, [folder]), `status`, `check`
 * (one of `exact`, `contains`, `regex`, or `json` with `equals`), `concurrency-limit`; `feed:` and `mix:` ([TrafficReader]).
 */
internal class HttpEndpointReader(private val m: YamlMap, private val problems: Problems, private val folder: Path) {
    fun read(): HttpEndpointSpec? {
        val name = m.requiredString("name", "how cells name it, e.g. name: orders")
        if (name != null && !name.matches(Regex("[A-Za-z0-9_.]+"))) problems.at(m.valueNode("name"), m.qualify("name"), "'$name' may hold only letters, digits, '_' and '.'")
        val rejected = mutableSetOf<String>()
        val params = params(rejected)
        val feedMap = m.map("feed")
        val feeds = feedMap?.let { FeedReader(problems, folder).read(it) } ?: emptyList()
        val declared = feedMap?.let { FeedReader(problems, folder).names(it) }.orEmpty()
        val limit = m.int("concurrency-limit", 1..1_000_000)
        val traffic = TrafficReader(m, problems, folder, feeds, params.map { it.first }.toSet() + rejected, declared)
        if (m.has("mix")) {
            val mix = traffic.mix()
            if (name == null || mix.isEmpty()) return null
            val first = mix.first()
            return HttpEndpointSpec(name, first.method, first.path, params, first.headers, first.body, first.status, first.check, limit, feeds, mix, traffic.at())
        }
        val request = template(m, name ?: "", 1) ?: return null
        traffic.check(m, request)
        if (name == null) return null
        return HttpEndpointSpec(name, request.method, request.path, params, request.headers, request.body, request.status, request.check, limit, feeds,
            trafficAt = if (feeds.isNotEmpty()) traffic.at() else null)
    }

    /**
     * One request as [r] declares it: `method`, `path`, `headers`, `body` or `body-file`, `status`, `check`; null when its
     * path is missing. Each `{name}` it holds must be a parameter or a feed.
     */
    fun template(r: YamlMap, name: String, weight: Int): RequestTemplate? {
        val method = (r.string("method") ?: "GET").uppercase()
        if (method !in METHODS) problems.at(r.valueNode("method"), r.qualify("method"), "'$method' is not an HTTP method the lab sends", "one of: ${METHODS.joinToString()}")
        val path = r.requiredString("path", "e.g. path: /orders/{id}")
        if (path != null && !path.startsWith("/")) problems.at(r.valueNode("path"), r.qualify("path"), "'$path' must start with '/'")
        val headers = r.stringMap("headers") ?: emptyMap()
        val body = body(r)
        val status = r.int("status", 100..599) ?: if (method == "POST") 201 else 200
        val check = check(r)
        if (path == null) return null
        return RequestTemplate(name, method, path, headers, body, status, check, weight)
    }
    private fun params(rejected: MutableSet<String>): List<Pair<String, List<String>>> {
        val p = m.map("params") ?: return emptyList()
        return p.node.value.mapNotNull { t ->
            val key = (t.keyNode as? org.snakeyaml.engine.v2.nodes.ScalarNode)?.value ?: return@mapNotNull null
            val nodes = p.scalars(key) ?: return@mapNotNull null.also { rejected += key }
            val count = nodes.sumOf { node -> rangeSize(node.value) ?: 1L }
            when {
                nodes.isEmpty() -> null.also { problems.at(p.valueNode(key), p.qualify(key), "has no value"); rejected += key }
                nodes.any { (rangeSize(it.value) ?: 1) < 1 } -> null.also { problems.at(p.valueNode(key), p.qualify(key), "holds an empty range", "a..b with a <= b"); rejected += key }
                count > MAX_VALUES -> null.also {
                    problems.at(p.valueNode(key), p.qualify(key), "sweeps $count values: each is a configuration of its own", "at most $MAX_VALUES"); rejected += key
                }
                else -> key to nodes.flatMap { node -> range(node.value) ?: listOf(node.value) }.distinct()
            }
        }.also { p.finish() }
    }

    /** `1..5` as 1, 2, 3, 4, 5; null when [text] is not a range (checked for size first: [rangeSize]). */
    private fun range(text: String): List<String>? = bounds(text)?.let { (a, b) -> (a..b).map { it.toString() } }

    private fun rangeSize(text: String): Long? = bounds(text)?.let { (a, b) -> b - a + 1 }

    private fun bounds(text: String): Pair<Long, Long>? {
        val match = Regex("(-?\\d{1,15})\\.\\.(-?\\d{1,15})").matchEntire(text.trim()) ?: return null
        val (from, to) = match.destructured
        return from.toLong() to to.toLong()
    }

    private fun body(m: YamlMap): String? {
        val inline = m.string("body")
        val file = m.string("body-file")
        if (inline != null && file != null) problems.at(m.keyNode("body-file"), m.qualify("body-file"), "give body or body-file, not both")
        if (file == null) return inline
        val path = folder.resolve(file)
        return runCatching { Files.readString(path) }.getOrElse {
            null.also { _ -> problems.at(m.valueNode("body-file"), m.qualify("body-file"), "cannot read $path: ${it.message ?: it.javaClass.simpleName}") }
        }
    }

    private fun check(m: YamlMap): BodyCheck? {
        val c = m.map("check") ?: return null
        val given = listOf("exact", "contains", "regex", "json").filter { c.has(it) }
        if (given.size != 1) {
            problems.at(c.node, c.qualify(""), "must give one of exact, contains, regex, json (with equals)", "e.g. check: {json: /count, equals: 1229}")
            c.allow("exact", "contains", "regex", "json", "equals")
            c.finish()
            return null
        }
        val check = when (val kind = given.single()) {
            "exact" -> c.string(kind)?.let { BodyCheck.Exact(it) }
            "contains" -> c.string(kind)?.let { BodyCheck.Contains(it) }
            "regex" -> c.string(kind)?.let { pattern ->
                runCatching { Regex(pattern) }.fold({ BodyCheck.Matches(pattern) }, { e ->
                    null.also { problems.at(c.valueNode(kind), c.qualify(kind), "'$pattern' is not a regular expression: ${e.message?.lineSequence()?.first()}") }
                })
            }
            else -> {
                val pointer = c.string("json")
                val equals = c.requiredString("equals", "the value expected at the pointer, e.g. equals: 1229")
                if (pointer != null && !pointer.startsWith("/")) problems.at(c.valueNode("json"), c.qualify("json"), "'$pointer' is not a JSON Pointer", "e.g. /count or /order/items/0/quantity (RFC 6901)")
                if (pointer != null && equals != null) BodyCheck.JsonAt(pointer, equals) else null
            }
        }
        c.finish()
        return check
    }

    internal companion object {
        val METHODS = listOf("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD")
        const val MAX_VALUES = 50
    }
}
