package stackbench.apps.contract

import org.assertj.core.api.SoftAssertions
import stackbench.contract.CpuStrategy
import stackbench.contract.DownstreamAnswer
import stackbench.contract.DownstreamClient
import stackbench.contract.DownstreamFailure
import stackbench.contract.DownstreamService
import stackbench.contract.ErrorBody
import stackbench.contract.IoAnswer
import stackbench.contract.IoStrategy
import stackbench.contract.Paths
import stackbench.contract.PrimeCounts
import stackbench.contract.PrimesAnswer
import stackbench.contract.Todo
import stackbench.contract.Todos

/** The answers of every endpoint and strategy, checked against the contract. */
object EndpointChecks {
    private const val CREDENTIALS = "${Todos.USER}:${Todos.PASSWORD}"
    private const val DELAY = 200L

    fun noop(soft: SoftAssertions, http: Http) {
        val answer = http.get(Paths.NOOP)
        soft.assertThat(answer.status).`as`("/noop: %s", answer).isEqualTo(200)
        soft.assertThat(answer.body).`as`("/noop").isEqualTo(Paths.NOOP_BODY)
    }

    /** Every CPU strategy at two limits; `coop` also with a small batch. */
    fun cpu(soft: SoftAssertions, http: Http) {
        val asked = CpuStrategy.entries.flatMap { s -> listOf(10_000L, 100_000L).map { "/cpu/${s.id}?limit=$it" } } +
            listOf("/cpu/coop?limit=50000&batch=7", "/cpu/direct?limit=0", "/cpu/semaphore?limit=2")
        for ((path, answer) in asked.zip(asked.map { http.get(it) })) {
            soft.assertThat(answer.status).`as`("%s: %s", path, answer).isEqualTo(200)
            if (answer.status != 200) continue
            val limit = path.substringAfter("limit=").substringBefore('&').toLong()
            soft.assertThat(answer.json<PrimesAnswer>()).`as`(path).isEqualTo(PrimesAnswer(limit, PrimeCounts.upTo(limit)))
        }
    }

    /** Every I/O strategy at once: each answers its own id and the delay, no sooner than the delay. */
    fun io(soft: SoftAssertions, http: Http) {
        val paths = IoStrategy.entries.map { "/io/${it.id}?delay=$DELAY" }
        for ((strategy, answer) in IoStrategy.entries.zip(http.getAll(paths))) {
            soft.assertThat(answer.status).`as`("/io/%s: %s", strategy.id, answer).isEqualTo(200)
            if (answer.status != 200) continue
            soft.assertThat(answer.json<IoAnswer>()).`as`("/io/%s", strategy.id).isEqualTo(IoAnswer(strategy.id, DELAY))
            soft.assertThat(answer.millis).`as`("/io/%s took", strategy.id).isGreaterThanOrEqualTo(DELAY)
        }
    }

    /** Every downstream client at once: each embeds the downstream service's body, no sooner than the delay. */
    fun downstream(soft: SoftAssertions, http: Http) {
        val paths = DownstreamClient.entries.map { "/downstream/${it.id}?delay=$DELAY" }
        for ((client, answer) in DownstreamClient.entries.zip(http.getAll(paths))) {
            soft.assertThat(answer.status).`as`("/downstream/%s: %s", client.id, answer).isEqualTo(200)
            if (answer.status != 200) continue
            soft.assertThat(answer.json<DownstreamAnswer>()).`as`("/downstream/%s", client.id)
                .isEqualTo(DownstreamAnswer(client.id, DELAY, DownstreamService.body(DELAY)))
            soft.assertThat(answer.millis).`as`("/downstream/%s took", client.id).isGreaterThanOrEqualTo(DELAY)
        }
    }

    /** With no downstream service listening, every client answers 502 naming itself. */
    fun downstreamDown(soft: SoftAssertions, http: Http) {
        val paths = DownstreamClient.entries.map { "/downstream/${it.id}?delay=10" }
        for ((client, answer) in DownstreamClient.entries.zip(http.getAll(paths))) {
            soft.assertThat(answer.status).`as`("/downstream/%s down: %s", client.id, answer).isEqualTo(502)
            if (answer.status != 502) continue
            val failure = answer.json<DownstreamFailure>()
            soft.assertThat(failure.error).isEqualTo(DownstreamFailure.ERROR)
            soft.assertThat(failure.client).`as`("502 of %s", client.id).isEqualTo(client.id)
            soft.assertThat(failure.url).endsWith("/delay?ms=10")
        }
    }

    /**
     * One keep-alive connection, answers alternating between asynchronous (a timer) and synchronous (on the
     * request thread or event loop): the pattern that stalls Reactor Netty 1.2.18 and 1.3.7 (reactor-netty#4361).
     */
    fun keepAlive(soft: SoftAssertions, base: String) {
        Http(base, keepAlive = true, timeout = java.time.Duration.ofSeconds(5)).use { http ->
            val statuses = (1..30).flatMap { listOf("/io/mono-delay?delay=1", Paths.NOOP, "/cpu/direct?limit=10") }
                .map { path -> runCatching { http.get(path).status }.getOrElse { -1 } }
            soft.assertThat(statuses).`as`("90 requests on one keep-alive connection, none stalled").containsOnly(200)
        }
    }

    fun todo(soft: SoftAssertions, http: Http) {
        val posted = Todo(42, "write the lab", null, false)
        val json = Http.JSON.writeValueAsString(posted)
        soft.assertThat(http.get(Paths.TODO).status).`as`("GET /todo without credentials").isEqualTo(401)
        soft.assertThat(http.post(Paths.TODO, json).status).`as`("POST /todo without credentials").isEqualTo(401)
        soft.assertThat(http.get(Paths.TODO, "${Todos.USER}:wrong").status).`as`("GET /todo, wrong password").isEqualTo(401)

        val list = http.get(Paths.TODO, CREDENTIALS)
        soft.assertThat(list.status).`as`("GET /todo: %s", list).isEqualTo(200)
        if (list.status == 200) soft.assertThat(list.json<List<Todo>>()).isEqualTo(Todos.LIST)

        val created = http.post(Paths.TODO, json, CREDENTIALS)
        soft.assertThat(created.status).`as`("POST /todo: %s", created).isEqualTo(201)
        if (created.status == 201) soft.assertThat(created.json<Todo>()).isEqualTo(Todos.created(posted))

        for (bad in listOf("{\"id\":1", "{\"id\":\"x\",\"title\":\"t\",\"completed\":false}", "{\"id\":1}", "[]")) {
            val answer = http.post(Paths.TODO, bad, CREDENTIALS)
            soft.assertThat(answer.status).`as`("POST /todo %s: %s", bad, answer).isEqualTo(400)
            if (answer.status == 400) soft.assertThat(answer.json<ErrorBody>().parameter).`as`("POST /todo %s", bad).isEqualTo("body")
        }
    }
}
