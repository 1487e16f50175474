package stackbench.runner.scaffold

import tools.jackson.databind.JsonNode
import tools.jackson.databind.json.JsonMapper

/** One answer the trial start got: the status, the content type (null when none) and the body. */
data class Answer(val status: Int, val contentType: String?, val body: String)

/** What an endpoint's answer is checked against in a suite (`status:`, `check:`), and why init chose it. */
data class CheckDraft(val status: Int, val check: BodyCheck?, val why: String)

/** The two `check:` forms init writes: `{json: /pointer, equals: VALUE}` and `{contains: TEXT}`. */
sealed interface BodyCheck {
    data class Json(val pointer: String, val equals: String) : BodyCheck
    data class Contains(val text: String) : BodyCheck
}

/**
 * What init reads of the service's answers: the readiness path among the common health paths, and the check of one
 * endpoint from two of its real answers. Pure.
 */
object Answers {
    /** The health paths init tries, in order: Spring Boot's actuator, Quarkus (SmallRye Health), Micronaut and Helidon, the usual others, then `/`. */
    val HEALTH_PATHS = listOf("/actuator/health", "/q/health/ready", "/health/ready", "/health", "/healthz", "/ready", "/readyz", "/")

    /**
     * The readiness of [answered] (each health path → the status it answered, null when it did not answer): the first
     * that answered 2xx, with that status; else the [endpoint] measured (its path and status) when it answered 2xx; else `/`
     * answering anything below 500 (the lab's default), when it did.
     * Null when nothing answered below 500.
     */
    fun readiness(answered: Map<String, Int?>, endpoint: Pair<String, Int>? = null): Pair<String, Int?>? {
        HEALTH_PATHS.firstOrNull { p -> answered[p]?.let { it in 200..299 } == true }?.let { return it to answered.getValue(it) }
        // no health path: the endpoint measured, when it answered 2xx, says more than / answering anything
        endpoint?.takeIf { it.second in 200..299 }?.let { return it }
        return answered.entries.firstOrNull { (_, s) -> s != null && s < 500 }?.let { "/" to null }
    }

    private val json = JsonMapper.builder().build()

    /** Field names whose values change from one answer to the next, never checked. */
    private val UNSTABLE = Regex("(?i).*(time|date|uptime|now|random|uuid|nonce|trace|span|request.?id|elapsed|duration|count|took|age|expires).*")

    /**
     * The check of an endpoint from two answers [first] and [second] to the same request: its status, and for JSON the
     * first field (top level, else of the first element of an array) whose value is a short scalar and the same in both,
     * by a JSON Pointer; for text, its first line (at most 60 characters) when both answers hold it; else the status alone. A value with `{` is never used (the suite fills `{param}`s in a check).
     */
    fun check(first: Answer, second: Answer): CheckDraft {
        val status = first.status
        if (first.body.isBlank()) return CheckDraft(status, null, "it answered $status with an empty body: the status alone is checked")
        val isJson = first.contentType?.contains("json", ignoreCase = true) == true || first.body.trimStart().let { it.startsWith("{") || it.startsWith("[") }
        if (isJson) {
            val a = runCatching { json.readTree(first.body) }.getOrNull()
            val b = runCatching { json.readTree(second.body) }.getOrNull()
            if (a != null && b != null) {
                stableField(a, b, "")?.let { (pointer, value) ->
                    return CheckDraft(status, BodyCheck.Json(pointer, value), "it answered $status with JSON; $pointer was $value in two answers")
                }
                return CheckDraft(status, null, "it answered $status with JSON whose fields were not the same in two answers (or none is a short value): the status alone is checked")
            }
        }
        val line = first.body.lineSequence().map { it.trim() }.firstOrNull { it.isNotEmpty() }.orEmpty()
        val text = line.take(60).let { if (it.length < line.length) it.substringBeforeLast(' ').ifEmpty { it } else it }
        if (text.isNotEmpty() && '{' !in text && second.body.contains(text) && first.body.contains(text)) {
            return CheckDraft(status, BodyCheck.Contains(text), "it answered $status with text that started the same in two answers")
        }
        return CheckDraft(status, null, "its answers differed from one request to the next: the status alone is checked")
    }

    /** The first stable short scalar of [a] and [b] under [at]: its pointer and its value as text. */
    private fun stableField(a: JsonNode, b: JsonNode, at: String): Pair<String, String>? {
        if (a.isArray && b.isArray) {
            return if (a.size() > 0 && b.size() > 0) stableField(a.get(0), b.get(0), "$at/0") else null
        }
        if (!a.isObject || !b.isObject) return null
        for (name in a.propertyNames()) {
            if (UNSTABLE.matches(name)) continue
            val x = a.get(name)
            val y = b.get(name) ?: continue
            if (!x.isValueNode || x.isNull || x != y) continue
            val value = x.asString()
            if (value.isEmpty() || value.length > 60 || '{' in value || '\n' in value) continue
            return "$at/${name.replace("~", "~0").replace("/", "~1")}" to value
        }
        return null
    }
}
