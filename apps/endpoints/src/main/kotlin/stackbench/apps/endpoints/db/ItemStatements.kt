package stackbench.apps.endpoints.db

/**
 * The SQL of `/db`, written once with PostgreSQL's numbered placeholders (`$1`: the id, `$2`: the delay in seconds)
 * and turned into JDBC's `?` form by [jdbc]. A delay is spent by `pg_sleep` inside the statement that reads the row,
 * so that the database holds the connection for it as it would for a slow query; without one the statement is the
 * plain lookup by primary key.
 */
object ItemStatements {
    const val SELECT = "select id, name, qty from item where id = \$1"
    const val SELECT_DELAYED = "select i.id, i.name, i.qty from item i cross join pg_sleep(\$2) where i.id = \$1"
    const val UPDATE = "update item set qty = qty + 1, updated_at = now() where id = \$1"

    /** The read of a request: [SELECT], or [SELECT_DELAYED] when it asks for a delay. */
    fun select(query: DbQuery): Bound =
        if (query.delayMs == 0L) Bound(SELECT, listOf(query.id)) else Bound(SELECT_DELAYED, listOf(query.id, query.delaySeconds))

    /** The write's update; a write then runs [select] in the same transaction. */
    fun update(query: DbQuery): Bound = Bound(UPDATE, listOf(query.id))

    /** A statement with its values, `values[n - 1]` binding `$n`. */
    data class Bound(val sql: String, val values: List<Any>) {
        /** The statement in JDBC's form: each `$n` a `?`, and the values in the order the `?` appear. */
        fun jdbc(): Bound {
            val order = PLACEHOLDER.findAll(sql).map { it.groupValues[1].toInt() }.toList()
            require(order.all { it in 1..values.size }) { "'$sql' has a placeholder beyond its ${values.size} values" }
            return Bound(PLACEHOLDER.replace(sql, "?"), order.map { values[it - 1] })
        }
    }

    private val PLACEHOLDER = Regex("""\$(\d+)""")
}
