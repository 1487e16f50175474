package stackbench.apps.endpoints.db

import stackbench.contract.Database
import stackbench.contract.DbOp
import stackbench.contract.Parameter
import java.util.concurrent.ThreadLocalRandom

/** One `/db` request, its parameters checked: what to do ([op]), to which row ([id]), and the wait inside the query. */
data class DbQuery(val op: DbOp, val id: Long, val delayMs: Long) {
    /** [delayMs] as `pg_sleep`'s argument. */
    val delaySeconds: Double get() = delayMs / 1000.0

    companion object {
        /**
         * Reads the raw `op`, `id` and `db-delay` query values: `op` defaults to `read`, `id` to a row drawn by
         * [randomId], `db-delay` to 0. A bad value throws the 400 naming its parameter.
         */
        fun parse(op: String?, id: String?, delay: String?, randomId: () -> Long = ::randomId): DbQuery =
            DbQuery(DbOp.parse(op), if (id.isNullOrEmpty()) randomId() else Parameter.ID.parse(id), Parameter.DB_DELAY.parse(delay, default = 0))

        /** A row of the table, uniformly. */
        fun randomId(): Long = ThreadLocalRandom.current().nextLong(1, Database.ITEMS + 1)
    }
}

/** A row of `item`, as a statement read it. */
data class Item(val id: Long, val name: String, val qty: Int)
