package stackbench.apps.endpoints.db

import stackbench.contract.DatabaseFailure
import stackbench.contract.DbStrategy

/** A `/db` request that could not be served: answered 503 with a [DatabaseFailure]. */
class DatabaseException(val strategy: DbStrategy, val error: String, message: String, cause: Throwable? = null) :
    RuntimeException(message, cause) {

    fun body(): DatabaseFailure = DatabaseFailure(error, strategy.id, message!!)

    companion object {
        /** A statement or a connection failed (or no connection came within the pool's timeout). */
        fun of(strategy: DbStrategy, query: DbQuery, cause: Throwable): DatabaseException =
            cause as? DatabaseException ?: DatabaseException(strategy, DatabaseFailure.ERROR,
                "${strategy.id}: ${query.op.id} of item ${query.id} failed: $cause", cause)

        /** The row is not in the table: the data was not loaded as the contract says. */
        fun missing(strategy: DbStrategy, query: DbQuery): DatabaseException =
            DatabaseException(strategy, DatabaseFailure.ERROR, "${strategy.id}: no item with id ${query.id} (is the table loaded with ids 1..10000?)")

        /** The app was started without the properties that give it this strategy's database. */
        fun notConfigured(strategy: DbStrategy, property: String): DatabaseException =
            DatabaseException(strategy, DatabaseFailure.NOT_CONFIGURED,
                "${strategy.id}: the app has no database: start it with --$property=... (see docs/apps.md)")
    }
}
