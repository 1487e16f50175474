package stackbench.contract

/** `GET /cpu/{strategy}` answers this: the limit asked and how many primes lie at or below it. */
data class PrimesAnswer(val limit: Long, val primes: Int)

/** `GET /io/{strategy}` answers this once the delay has passed. */
data class IoAnswer(val strategy: String, val delay: Long)

/** `GET /downstream/{client}` answers this with the downstream service's own answer inside. */
data class DownstreamAnswer(val client: String, val delay: Long, val downstream: String)

/** One item of the JHipster-style todo list served at `/todo`. */
data class Todo(val id: Long, val title: String, val description: String?, val completed: Boolean)

object Todos {
    const val USER = "bench"
    const val PASSWORD = "bench"
    const val SERVER_DESCRIPTION = "created by the server"

    /** The fixed list `GET /todo` answers: always these 10 items. */
    val LIST: List<Todo> = (1L..10L).map { Todo(it, "Todo $it", "Item number $it of the fixed list", it % 2 == 0L) }

    /** What `POST /todo` answers (201) for a posted item: the item, with the server's description. */
    fun created(posted: Todo): Todo = posted.copy(description = SERVER_DESCRIPTION)
}

/** The downstream service's `GET /delay?ms=N` body, and what the apps embed from it. */
object DownstreamService {
    const val PATH = "/delay"
    fun body(delayMs: Long): String = "{\"delayed\":$delayMs}"
}

/** Every path the systems under test serve. */
object Paths {
    const val NOOP = "/noop"
    const val CPU = "/cpu/{strategy}"
    const val IO = "/io/{strategy}"
    const val DOWNSTREAM = "/downstream/{client}"
    const val DB = "/db/{strategy}"
    const val TODO = "/todo"
    const val INFO = "/info"
    const val HEALTH = "/actuator/health"
    const val NOOP_BODY = "ok"
}
