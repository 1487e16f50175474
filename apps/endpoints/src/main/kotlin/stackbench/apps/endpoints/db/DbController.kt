package stackbench.apps.endpoints.db

import org.springframework.beans.factory.ObjectProvider
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import reactor.core.publisher.Mono
import reactor.core.scheduler.Schedulers
import stackbench.apps.endpoints.stats.WorkCounters
import stackbench.contract.Database
import stackbench.contract.DbAnswer
import stackbench.contract.DbStrategy
import stackbench.contract.Paths
import stackbench.contract.PathVariable as PathVariableId

/**
 * `GET /db/{strategy}?op=read|write&id=N&db-delay=ms`: reads one row of `item` by key, or updates it and reads it back
 * in one transaction, by the driver and on the thread the strategy names (see [DbStrategy]); `db-delay` adds
 * `pg_sleep` to the read. Parameters are checked first (400), then the database: without one, or when it fails, 503.
 *
 * The exchange is each request's work ([WorkCounters]): measured on the calling thread for the JDBC strategies
 * (the driver's work and its wait), counted unmeasured for R2DBC (the driver works on Reactor Netty's loops).
 */
@RestController
class DbController(
    private val jdbc: ObjectProvider<JdbcItems>,
    private val r2dbc: ObjectProvider<R2dbcItems>,
    private val work: WorkCounters,
) {

    @GetMapping(JDBC_PATH)
    fun jdbc(
        @RequestParam("op", required = false) op: String?,
        @RequestParam("id", required = false) id: String?,
        @RequestParam("db-delay", required = false) delay: String?,
    ): DbAnswer {
        val query = DbQuery.parse(op, id, delay)
        val items = jdbcItems(DbStrategy.JDBC)
        return answer(DbStrategy.JDBC, query, work.blocking(JDBC_PATH) { items.run(DbStrategy.JDBC, query) })
    }

    @GetMapping(JDBC_OFFLOAD_PATH)
    fun jdbcOffload(
        @RequestParam("op", required = false) op: String?,
        @RequestParam("id", required = false) id: String?,
        @RequestParam("db-delay", required = false) delay: String?,
    ): Mono<DbAnswer> {
        val query = DbQuery.parse(op, id, delay)
        val items = jdbcItems(DbStrategy.JDBC_OFFLOAD)
        return Mono.fromCallable {
            answer(DbStrategy.JDBC_OFFLOAD, query, work.blocking(JDBC_OFFLOAD_PATH) { items.run(DbStrategy.JDBC_OFFLOAD, query) })
        }.subscribeOn(Schedulers.boundedElastic())
    }

    @GetMapping(R2DBC_PATH)
    fun r2dbc(
        @RequestParam("op", required = false) op: String?,
        @RequestParam("id", required = false) id: String?,
        @RequestParam("db-delay", required = false) delay: String?,
    ): Mono<DbAnswer> {
        val query = DbQuery.parse(op, id, delay)
        val items = r2dbc.ifAvailable ?: throw DatabaseException.notConfigured(DbStrategy.R2DBC, Database.Property.R2DBC_URL)
        return work.counted(R2DBC_PATH, items.run(query)).map { answer(DbStrategy.R2DBC, query, it) }
    }

    /** Any other id: 400 naming `strategy` and the known ids. */
    @GetMapping(Paths.DB)
    fun unknown(@PathVariable("strategy") strategy: String): DbAnswer =
        throw PathVariableId.STRATEGY.unknown(strategy, DbStrategy.entries)

    private fun jdbcItems(strategy: DbStrategy): JdbcItems =
        jdbc.ifAvailable ?: throw DatabaseException.notConfigured(strategy, Database.Property.JDBC_URL)

    private fun answer(strategy: DbStrategy, query: DbQuery, item: Item) =
        DbAnswer(strategy.id, query.op.id, item.id, item.name, item.qty, query.delayMs)

    /** The paths, which are also the keys of their work in the stats side channel. */
    companion object {
        const val JDBC_PATH = "/db/jdbc"
        const val R2DBC_PATH = "/db/r2dbc"
        const val JDBC_OFFLOAD_PATH = "/db/jdbc-offload"
    }
}
