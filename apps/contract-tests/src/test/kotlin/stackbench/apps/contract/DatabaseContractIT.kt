package stackbench.apps.contract

import org.assertj.core.api.SoftAssertions
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.MethodSource
import stackbench.contract.AppInfo
import stackbench.contract.Paths

/**
 * `/db` against a real PostgreSQL ([TestPostgres], one for the class): each app jar started with the database's
 * JDBC and R2DBC properties and a pool of 4, every strategy read, written, delayed and driven past its pool, and
 * /info reporting both pools. The apps without the properties are checked by [AppContractIT] (no pool, 503).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseContractIT {
    private var db: TestPostgres? = null

    fun stacks() = Stacks.SELECTED

    @BeforeAll
    fun startDatabase() {
        val why = TestPostgres.unavailable()
        // as the runner's integration tests do: under CI a missing tool fails the test, elsewhere it skips, saying why
        check(why == null || System.getenv("CI") != "true") { "DatabaseContractIT needs PostgreSQL under CI: $why" }
        assumeTrue(why == null) { "DatabaseContractIT skipped: $why" }
        db = TestPostgres.start()
    }

    @AfterAll
    fun stopDatabase() {
        db?.close()
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stacks")
    fun `every db strategy reads, writes and waits in the query, through a pool of the size asked`(stack: Stack) {
        val db = db!!
        val pool = 4
        RunningApp.start(stack, "database", db.appArgs() + "--stackbench.db.pool=$pool").use { app ->
            app.diagnosed {
                val soft = SoftAssertions()
                // the pools only: the rest of /info is AppContractIT's (its heap figure assumes G1, which a JVM on one CPU does not pick)
                val info = app.http.get(Paths.INFO).json<AppInfo>()
                InfoChecks.pool(soft, info, DatabaseChecks.HIKARI, pool, "runtime")
                InfoChecks.pool(soft, info, DatabaseChecks.R2DBC, pool, "runtime")
                DatabaseChecks.present(soft, app, db, pool, firstId = 100L * (Stacks.ALL.indexOf(stack) + 1))
                DatabaseChecks.work(soft, app.stats())
                soft.assertAll()
            }
        }
    }
}
