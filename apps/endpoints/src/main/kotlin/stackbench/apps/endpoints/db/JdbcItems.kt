package stackbench.apps.endpoints.db

import stackbench.contract.DbOp
import stackbench.contract.DbStrategy
import java.sql.Connection
import javax.sql.DataSource

/**
 * `/db` by JDBC on the calling thread: a connection from the pool ([JdbcConfiguration]), one statement for a read,
 * an update and a read in one transaction for a write. Blocks the calling thread for the whole exchange.
 */
class JdbcItems(private val dataSource: DataSource) {

    fun run(strategy: DbStrategy, query: DbQuery): Item =
        try {
            dataSource.connection.use { connection ->
                when (query.op) {
                    DbOp.READ -> select(connection, query)
                    DbOp.WRITE -> write(connection, query)
                }
            } ?: throw DatabaseException.missing(strategy, query)
        } catch (e: Exception) {
            throw DatabaseException.of(strategy, query, e)
        }

    private fun write(connection: Connection, query: DbQuery): Item? {
        connection.autoCommit = false
        try {
            execute(connection, ItemStatements.update(query))
            val item = select(connection, query)
            connection.commit()
            return item
        } catch (e: Exception) {
            // the statement's failure is the one to report, not a rollback's on a broken connection
            runCatching { connection.rollback() }.exceptionOrNull()?.let(e::addSuppressed)
            throw e
        } finally {
            connection.autoCommit = true
        }
    }

    private fun execute(connection: Connection, statement: ItemStatements.Bound): Int {
        val jdbc = statement.jdbc()
        return connection.prepareStatement(jdbc.sql).use { prepared ->
            jdbc.values.forEachIndexed { i, value -> prepared.setObject(i + 1, value) }
            prepared.executeUpdate()
        }
    }

    private fun select(connection: Connection, query: DbQuery): Item? {
        val jdbc = ItemStatements.select(query).jdbc()
        return connection.prepareStatement(jdbc.sql).use { prepared ->
            jdbc.values.forEachIndexed { i, value -> prepared.setObject(i + 1, value) }
            prepared.executeQuery().use { rows ->
                if (rows.next()) Item(rows.getLong(1), rows.getString(2), rows.getInt(3)) else null
            }
        }
    }
}
