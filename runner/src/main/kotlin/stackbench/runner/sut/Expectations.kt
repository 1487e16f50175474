package stackbench.runner.sut

import stackbench.contract.DownstreamService
import stackbench.contract.Paths
import stackbench.contract.PrimeCounts
import stackbench.contract.Todo
import stackbench.contract.Todos
import stackbench.runner.plan.EndpointCall
import stackbench.runner.plan.EndpointKind
import tools.jackson.databind.JsonNode
import tools.jackson.databind.ObjectMapper
import java.util.concurrent.ConcurrentHashMap

/**
 * What a correct answer to a cell's request is: status and body, and for waits, no sooner than the wait.
 * Checked before any load, so a cell never measures wrong answers. Pure: answers in, a problem or null out.
 */
class Expectations(private val json: ObjectMapper) {
    private val primeCounts = ConcurrentHashMap<Long, Int>()

    fun expectedStatus(call: EndpointCall): Int = call.http?.status ?: if (call.body != null) 201 else 200

    /** The problem with [answer] for [call], or null if it is right. */
    fun check(call: EndpointCall, answer: Answer): String? {
        val want = expectedStatus(call)
        if (answer.status != want) return "expected status $want, got ${answer.status}: ${excerpt(answer.body)}"
        return when (call.kind) {
            // a declared endpoint: its own check, or its status alone
            EndpointKind.HTTP -> call.http?.check?.problem(answer.body, json)
            EndpointKind.NOOP -> if (answer.body.trim() == Paths.NOOP_BODY) null else "expected '${Paths.NOOP_BODY}', got '${excerpt(answer.body)}'"
            EndpointKind.CPU -> {
                val limit = call.param("limit")!!
                val expected = primeCounts.computeIfAbsent(limit) { PrimeCounts.upTo(it) }
                val node = parse(answer.body) ?: return "not JSON: ${excerpt(answer.body)}"
                when {
                    node.path("limit").asLong(-1) != limit -> "expected limit $limit, got ${node.path("limit")}"
                    node.path("primes").asInt(-1) != expected -> "expected $expected primes up to $limit, got ${node.path("primes")}"
                    else -> null
                }
            }
            EndpointKind.IO -> {
                val delay = call.param("delay")!!
                val node = parse(answer.body) ?: return "not JSON: ${excerpt(answer.body)}"
                when {
                    node.path("delay").asLong(-1) != delay -> "expected delay $delay, got ${node.path("delay")}"
                    node.path("strategy").asString("") != call.strategy -> "expected strategy ${call.strategy}, got ${node.path("strategy")}"
                    answer.elapsedMs < delay -> "answered in %.1f ms, sooner than its %d ms delay".format(answer.elapsedMs, delay)
                    else -> null
                }
            }
            EndpointKind.DOWNSTREAM -> {
                val delay = call.param("delay")!!
                val node = parse(answer.body) ?: return "not JSON: ${excerpt(answer.body)}"
                when {
                    node.path("client").asString("") != call.strategy -> "expected client ${call.strategy}, got ${node.path("client")}"
                    node.path("delay").asLong(-1) != delay -> "expected delay $delay, got ${node.path("delay")}"
                    node.path("downstream").asString("") != DownstreamService.body(delay) ->
                        "expected the downstream body ${DownstreamService.body(delay)}, got ${node.path("downstream")}"
                    answer.elapsedMs < delay -> "answered in %.1f ms, sooner than the downstream's %d ms delay".format(answer.elapsedMs, delay)
                    else -> null
                }
            }
            // the body is the app's: the lab checks the status (above) and that the query's known wait was waited
            EndpointKind.DB -> {
                val delay = call.param("db-delay") ?: 0
                if (answer.elapsedMs < delay) "answered in %.1f ms, sooner than its %d ms db-delay".format(answer.elapsedMs, delay) else null
            }
            EndpointKind.TODO -> {
                val expected: Any = call.body?.let { Todos.created(it) } ?: Todos.LIST
                val actual: Any? = runCatching {
                    if (call.body != null) json.readValue(answer.body, Todo::class.java)
                    else json.readValue(answer.body, Array<Todo>::class.java).toList()
                }.getOrNull()
                if (actual == expected) null else "expected ${json.writeValueAsString(expected)}, got ${excerpt(answer.body)}"
            }
        }
    }

    private fun parse(body: String): JsonNode? = runCatching { json.readTree(body) }.getOrNull()

    companion object {
        fun excerpt(body: String, max: Int = 300) = if (body.length <= max) body else body.take(max) + "…"
    }
}
