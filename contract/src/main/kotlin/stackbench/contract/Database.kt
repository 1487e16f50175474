package stackbench.contract

/**
 * The database of `GET /db/{strategy}`: one table, `item(id bigint primary key, name text not null, qty int not null,
 * updated_at timestamptz not null default now())`, whose rows 1 to [ITEMS] are loaded before the app is measured.
 * The app is given the database as Spring properties ([Property]); without them it has no database, no pool, and
 * `/db` answers 503.
 */
object Database {
    /** The table holds the ids 1 to this. */
    const val ITEMS = 10_000L

    /** The size of each connection pool (HikariCP's maximumPoolSize, r2dbc-pool's maxSize) unless set. */
    const val DEFAULT_POOL = 10

    /** The Spring properties that give an app its database; the JDBC ones for `jdbc` and `jdbc-offload`, R2DBC for `r2dbc`. */
    object Property {
        const val JDBC_URL = "spring.datasource.url"
        const val JDBC_USERNAME = "spring.datasource.username"
        const val JDBC_PASSWORD = "spring.datasource.password"
        const val R2DBC_URL = "spring.r2dbc.url"
        const val R2DBC_USERNAME = "spring.r2dbc.username"
        const val R2DBC_PASSWORD = "spring.r2dbc.password"
        const val POOL = "stackbench.db.pool"
    }
}

/** What a `/db` request does: `op` = `read` (select one row by key) or `write` (a transaction: update it, select it). */
enum class DbOp(val id: String) {
    READ("read"),
    WRITE("write");

    companion object {
        const val PARAMETER = "op"

        fun byId(id: String): DbOp? = entries.firstOrNull { it.id == id }

        /** The raw `op` query value: [READ] when absent or empty, else one of the ids, else a 400 naming `op`. */
        fun parse(raw: String?): DbOp {
            if (raw.isNullOrEmpty()) return READ
            return byId(raw) ?: throw BadParameterException(PARAMETER, raw, entries.joinToString(", ") { it.id }, "is not a known op")
        }
    }
}

/**
 * `GET /db/{strategy}` answers this: the row as the request's statement saw it (for a write, after its update, in
 * the same transaction), and what was asked: the op, the id (drawn at random when not given) and the delay in the query.
 */
data class DbAnswer(
    val strategy: String,
    val op: String,
    val id: Long,
    val name: String,
    val qty: Int,
    val dbDelay: Long,
)

/** The JSON body of a 503 answer from `/db`: no database configured, no connection within the pool's timeout, or a failed statement. */
data class DatabaseFailure(
    val error: String,
    val strategy: String,
    val message: String,
) {
    companion object {
        const val ERROR = "database_failed"
        const val NOT_CONFIGURED = "database_not_configured"
    }
}
