package stackbench.apps.contract

import org.assertj.core.api.SoftAssertions
import stackbench.contract.AppInfo
import stackbench.contract.Database
import stackbench.contract.DatabaseFailure
import stackbench.contract.DbAnswer
import stackbench.contract.DbStrategy
import stackbench.contract.Stats
import java.time.Duration

/** `/db`: with a database (read, write, db-delay, the pool's bound) and without one (no pool, 503). */
object DatabaseChecks {
    const val HIKARI = "db.hikari.connections"
    const val R2DBC = "db.r2dbc.connections"

    /** An app given no database: no pool in /info, and every strategy answers 503 naming the property it lacks. */
    fun absent(soft: SoftAssertions, http: Http, info: AppInfo?) {
        soft.assertThat(info?.pools?.map { it.name }).`as`("no database pool without a URL").doesNotContain(HIKARI, R2DBC)
        for (strategy in DbStrategy.entries) {
            val answer = http.get("/db/${strategy.id}?id=1")
            soft.assertThat(answer.status).`as`("/db/%s without a database: %s", strategy.id, answer).isEqualTo(503)
            if (answer.status != 503) continue
            val failure = answer.json<DatabaseFailure>()
            soft.assertThat(failure.error).isEqualTo(DatabaseFailure.NOT_CONFIGURED)
            soft.assertThat(failure.strategy).isEqualTo(strategy.id)
            val property = if (strategy == DbStrategy.R2DBC) Database.Property.R2DBC_URL else Database.Property.JDBC_URL
            soft.assertThat(failure.message).contains("--$property=")
        }
    }

    /**
     * Every strategy against [db]: a read answers the row as loaded, a write adds 1 to its qty and answers the new
     * one (read back the same by the next read), a default id is a row of the table, a db-delay of 50 ms takes at least
     * 50 ms, and 8 requests of 300 ms at once through a pool of [pool] take [pool]-bounded rounds. Each strategy gets
     * rows of its own (`firstId` up), so that the stacks and strategies do not write over each other's.
     */
    fun present(soft: SoftAssertions, app: RunningApp, db: TestPostgres, pool: Int, firstId: Long) {
        val http = app.http
        DbStrategy.entries.forEachIndexed { i, strategy ->
            val s = strategy.id
            val id = firstId + i
            val read = http.get("/db/$s?id=$id")
            soft.assertThat(read.status).`as`("read by %s: %s", s, read).isEqualTo(200)
            if (read.status != 200) return@forEachIndexed
            soft.assertThat(read.json<DbAnswer>()).isEqualTo(DbAnswer(s, "read", id, "item $id", (id % 100).toInt(), 0))

            val write = http.get("/db/$s?op=write&id=$id")
            soft.assertThat(write.status).`as`("write by %s: %s", s, write).isEqualTo(200)
            if (write.status == 200) soft.assertThat(write.json<DbAnswer>()).isEqualTo(DbAnswer(s, "write", id, "item $id", (id % 100).toInt() + 1, 0))
            soft.assertThat(db.psql("select qty from item where id = $id")).`as`("%s's write committed", s).isEqualTo("${id % 100 + 1}")

            val drawn = http.get("/db/$s")
            soft.assertThat(drawn.status).`as`("%s with a drawn id: %s", s, drawn).isEqualTo(200)
            if (drawn.status == 200) soft.assertThat(drawn.json<DbAnswer>().id).isBetween(1L, Database.ITEMS)

            val delayed = http.get("/db/$s?id=$id&db-delay=50")
            soft.assertThat(delayed.status).`as`("%s with db-delay: %s", s, delayed).isEqualTo(200)
            soft.assertThat(delayed.millis).`as`("%s: db-delay=50 answered after", s).isGreaterThanOrEqualTo(50)
            if (delayed.status == 200) soft.assertThat(delayed.json<DbAnswer>().dbDelay).isEqualTo(50)
        }
        // the pool binds: 8 queries of 300 ms through `pool` connections take ceil(8 / pool) rounds at least. Strategies
        // that do not block a request thread of their own (r2dbc; jdbc-offload has >= 10 boundedElastic threads) and
        // the servlet request thread (200 of them) are bounded by the pool alone; jdbc on WebFlux blocks the event loop.
        val rounds = (8 + pool - 1) / pool
        for (strategy in DbStrategy.entries) {
            if (strategy == DbStrategy.JDBC && !app.stack.servlet) continue
            val started = System.nanoTime()
            val answers = http.getAll(List(8) { "/db/${strategy.id}?db-delay=300" })
            val tookMs = Duration.ofNanos(System.nanoTime() - started).toMillis()
            soft.assertThat(answers.map { it.status }).`as`("8 at once by %s", strategy.id).containsOnly(200)
            soft.assertThat(tookMs).`as`("8 x 300 ms by %s through %d connections", strategy.id, pool).isGreaterThanOrEqualTo(rounds * 300L - 10)
        }
    }

    /** The stats side channel counts /db's work: measured on the calling thread for JDBC, unmeasured for R2DBC. */
    fun work(soft: SoftAssertions, stats: Stats) {
        for (strategy in DbStrategy.entries) {
            val work = stats.work["/db/${strategy.id}"]
            soft.assertThat(work?.count).`as`("/db/%s counted: %s", strategy.id, work).isPositive()
            if (strategy == DbStrategy.R2DBC) soft.assertThat(work?.unmeasured).`as`("r2dbc: unmeasured").isEqualTo(work?.count)
        }
    }
}
