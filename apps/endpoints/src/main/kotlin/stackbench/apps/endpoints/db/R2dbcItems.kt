package stackbench.apps.endpoints.db

import io.r2dbc.spi.Connection
import io.r2dbc.spi.ConnectionFactory
import reactor.core.publisher.Flux
import reactor.core.publisher.Mono
import stackbench.contract.DbOp
import stackbench.contract.DbStrategy

/**
 * `/db` by R2DBC: a connection from the pool ([R2dbcConfiguration]), the same statements as [JdbcItems], no thread
 * held while the database works. The connection goes back to the pool when the answer is ready, fails or is cancelled.
 */
class R2dbcItems(private val connections: ConnectionFactory) {

    fun run(query: DbQuery): Mono<Item> {
        val strategy = DbStrategy.R2DBC
        return Mono.usingWhen(
            connections.create(),
            { connection ->
                when (query.op) {
                    DbOp.READ -> select(connection, query)
                    DbOp.WRITE -> write(connection, query)
                }
            },
            { connection -> connection.close() },
        )
            .switchIfEmpty(Mono.error { DatabaseException.missing(strategy, query) })
            .onErrorMap { DatabaseException.of(strategy, query, it) }
    }

    private fun write(connection: Connection, query: DbQuery): Mono<Item> =
        Mono.from(connection.beginTransaction())
            .then(execute(connection, ItemStatements.update(query)))
            .then(select(connection, query))
            .flatMap { item -> Mono.from(connection.commitTransaction()).thenReturn(item) }
            .onErrorResume { failure ->
                Mono.from(connection.rollbackTransaction()).onErrorResume { Mono.empty() }.then(Mono.error(failure))
            }

    private fun execute(connection: Connection, statement: ItemStatements.Bound): Mono<Long> =
        Flux.from(bind(connection, statement).execute()).flatMap { it.rowsUpdated }.reduce(0L) { a, b -> a + b }

    private fun select(connection: Connection, query: DbQuery): Mono<Item> =
        Flux.from(bind(connection, ItemStatements.select(query)).execute())
            .flatMap { result ->
                result.map { row, _ ->
                    Item(row.get(0, java.lang.Long::class.java)!!.toLong(), row.get(1, String::class.java)!!, row.get(2, Integer::class.java)!!.toInt())
                }
            }
            .next()

    private fun bind(connection: Connection, statement: ItemStatements.Bound): io.r2dbc.spi.Statement =
        connection.createStatement(statement.sql).also { s -> statement.values.forEachIndexed { i, value -> s.bind(i, value) } }
}
