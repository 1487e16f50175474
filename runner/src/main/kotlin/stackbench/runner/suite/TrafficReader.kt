package stackbench.runner.suite

import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.YamlMap
import java.nio.file.Path

/**
 * Reads a declared endpoint's `mix:` (named requests, each with a `weight`, read as [HttpEndpointReader.template]
 * reads one) and checks each request's placeholders: every `{name}` a parameter ([params]) or one of [feeds], every
 * `{feed.column}` a column the feed has, and no `${env:NAME}` in a fed or mixed path (the drivers fill those paths as
 * they send: a secret goes in a header or the body).
 */
internal class TrafficReader(
    private val m: YamlMap,
    private val problems: Problems,
    private val folder: Path,
    private val feeds: List<Feed>,
    private val params: Set<String>,
    /** Every feed `feed:` names, those [feeds] does not hold included (their mistake is reported at the feed). */
    private val declared: Set<String> = feeds.map { it.name }.toSet(),
) {
    fun mix(): List<RequestTemplate> {
        val maps = m.maps("mix") ?: return emptyList()
        if (maps.isEmpty()) problems.at(m.valueNode("mix"), m.qualify("mix"), "must not be empty", "e.g. mix: [{name: read, weight: 70, path: /orders/{ids.id}}, ...]")
        listOf("method", "path", "headers", "body", "body-file", "status", "check").filter { m.has(it) }.forEach { key ->
            problems.at(m.keyNode(key), m.qualify(key), "does not apply beside mix: each request of the mix gives its own", "move it into the mix's requests")
            m.allow(key)
        }
        val names = mutableSetOf<String>()
        val requests = maps.mapNotNull { r ->
            val name = r.requiredString("name", "how the results name this request, e.g. name: read")
            if (name != null && !NAME.matches(name)) problems.at(r.valueNode("name"), r.qualify("name"), "'$name' may hold only letters, digits, '_', '-' and '.'")
            if (name != null && !names.add(name)) problems.at(r.valueNode("name"), r.qualify("name"), "'$name' names two requests of the mix", "give each its own name")
            val weight = r.int("weight", 1..1000) ?: 1
            val t = HttpEndpointReader(r, problems, folder).template(r, name ?: "", weight)
            t?.let { check(r, it) }
            r.finish()
            if (name == null) null else t
        }
        return requests.takeIf { it.size == maps.size } ?: emptyList()
    }

    /** Checks [t]'s placeholders against the parameters and feeds, its problems placed in [r]. */
    fun check(r: YamlMap, t: RequestTemplate) {
        val texts = listOf("path" to t.path, "body" to t.body.orEmpty()) + t.headers.map { "headers" to it.value }
        for ((key, text) in texts) {
            val at = r.valueNode(if (key == "body" && !r.has("body")) "body-file" else key)
            Regex("\\{([A-Za-z0-9_]+)}").findAll(text).map { it.groupValues[1] }
                .filter { it !in params && it !in declared }
                .forEach { missing ->
                    problems.at(at, r.qualify(key), "names {$missing}, which params: does not give",
                        "e.g. params: {$missing: [1, 2, 3]} (one configuration each) or feed: {$missing: {range: 1..1000}} (drawn per request)")
                }
            Regex("\\{([A-Za-z0-9_]+)\\.[A-Za-z0-9_-]+}").findAll(text).map { it.groupValues[1] }.filter { it !in declared }.forEach { missing ->
                problems.at(at, r.qualify(key), "names {$missing.…}, but there is no feed $missing", "feeds here: ${feeds.joinToString { it.name }.ifEmpty { "none" }}")
            }
            Placeholders.problems(text, feeds).forEach { problems.at(at, r.qualify(key), it) }
        }
        if ((feeds.isNotEmpty() || m.has("mix")) && Secrets.PLACEHOLDER.containsMatchIn(t.path)) {
            problems.at(r.valueNode("path"), r.qualify("path"), "holds \${env:…} in the path of a fed or mixed request: the drivers fill such a path as they send, " +
                "and would send the value unencoded", "send it in a header or the body")
        }
        val clash = declared.filter { it in params }
        clash.forEach { problems.at(m.valueNode("feed"), m.qualify("feed.$it"), "'$it' is both a parameter and a feed", "rename one of them") }
    }

    /** The line and column of the `mix:` key, else the `feed:` key. */
    fun at(): Pair<Int, Int>? = (m.keyNode("mix") ?: m.keyNode("feed"))?.startMark?.orElse(null)?.let { it.line + 1 to it.column + 1 }

    private companion object {
        val NAME = Regex("[A-Za-z0-9_.-]{1,40}")
    }
}
