package stackbench.runner.cli

import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.database.PostgresCommands
import stackbench.runner.database.PostgresServer
import stackbench.runner.gate.GateFixtures
import stackbench.runner.gate.GateFixtures.PLATFORM
import stackbench.runner.history.HistoryStore
import stackbench.runner.host.LocalHost
import stackbench.runner.host.ProcessRegistry
import stackbench.runner.isolation.Isolation
import stackbench.runner.suite.DatabaseSpec
import stackbench.runner.testing.Needs
import java.nio.file.Files
import java.nio.file.Path

/**
 * The history in a team's PostgreSQL, as docs/ci.md sets it up: a PostgreSQL 15 that the test starts on loopback
 * (the lab's own database role, as the postgres user) holds the history of three runs; `run --history`'s indexing,
 * `history` and `gate` read and write it by its JDBC URL exactly as they do SQLite, with Flyway's migrations; and
 * the server and its folder are gone afterwards.
 */
@Background
@ResourceLock(SharedMachine.LANE_1)
class HistoryPostgresIT {
    private val home = Path.of(System.getProperty("stackbench.home"))

    @Test
    fun `history and gate work the same on a PostgreSQL history, which is torn down after`(@TempDir dir: Path) {
        Needs.that(Files.isExecutable(Path.of(PostgresCommands.BIN, "postgres")), "PostgreSQL 15 is not installed (./stackbench doctor --fix)")
        Needs.that(System.getProperty("user.name") == "root", "root, to run PostgreSQL as the postgres user")
        val registry = ProcessRegistry()
        val db = PostgresServer(LocalHost(registry), Isolation.detect(), home)
            .start(DatabaseSpec(), emptyList(), "sb${ProcessHandle.current().pid()}-history", dir.resolve("postgres.log"))
        val pids = db.pids()
        try {
            val url = "${db.endpoint.jdbcUrl}?user=${db.endpoint.user}&password=${db.endpoint.password}"
            val results = dir.resolve("results")
            val first = GateFixtures.write(GateFixtures.run("t-1", "2026-11-27T01:00:00Z", commit = "aaaaaaa"), results)
            val second = GateFixtures.write(GateFixtures.run("t-2", "2026-11-27T02:00:00Z", commit = "bbbbbbb"), results)
            val slow = GateFixtures.write(GateFixtures.run("t-3", "2026-11-27T03:00:00Z", commit = "ccccccc", scale = mapOf(PLATFORM to 0.7)), results)

            // as `run --history URL` ends: each finished run indexed where the flag says
            for (run in listOf(first, second, slow)) {
                val console = java.io.ByteArrayOutputStream()
                HistoryIndexing.index(run, java.io.PrintStream(console, true, Charsets.UTF_8), emptyMap(), given = url)
                assertThat(console.toString(Charsets.UTF_8)).startsWith("history: indexed in jdbc:postgresql://").contains("password=***")
            }
            HistoryStore.open(url).use { assertThat(it.runs().map { r -> r.id }).containsExactlyInAnyOrder("t-1", "t-2", "t-3") }

            val page = dir.resolve("page/history.html")
            val shown = captured("history", "--history", url, "t", "--html", page.toString())
            assertThat(shown.code).describedAs(shown.err).isEqualTo(Exit.OK)
            assertThat(shown.out).contains("suite t: 3 run(s)", "t-2 → t-3: commit bbbbbbb → ccccccc", PLATFORM)
            assertThat(shown.out + shown.err).doesNotContain("password=${db.endpoint.password}")
            assertThat(Files.readString(page)).contains("stackbench history", "sb-data")

            val latest = captured("gate", "--history", url, "--baseline", "latest", "--current", slow.toString())
            assertThat(latest.code).describedAs(latest.err).isEqualTo(Exit.GATE_SLOWER)
            assertThat(latest.out).contains("against baseline `t-2`")
            assertThat(latest.err).contains(PLATFORM, "throughput 0.70×")
            val same = captured("gate", "--history", url, "--baseline", "t-1", "--current", second.toString())
            assertThat(same.code).describedAs(same.err).isEqualTo(Exit.OK)
            val none = captured("gate", "--history", url, "--baseline", "latest", "--current", first.toString())
            assertThat(none.code).isEqualTo(Exit.GATE_CANNOT_COMPARE)
            assertThat(none.err).contains("no baseline", "before t-1")

            // rebuilt from the folders, the PostgreSQL history holds the same runs once each
            val rebuilt = captured("history", "--history", url, "--rebuild", results.toString())
            assertThat(rebuilt.code).describedAs(rebuilt.err).isEqualTo(Exit.OK)
            HistoryStore.open(url).use { assertThat(it.runs().map { r -> r.id }).containsExactlyInAnyOrder("t-1", "t-2", "t-3") }
        } finally {
            db.stop()
        }
        assertThat(pids.filter { pid -> ProcessHandle.of(pid).map { it.isAlive }.orElse(false) }).`as`("server processes left").isEmpty()
        assertThat(db.dir).`as`("the cluster's folder").doesNotExist()
    }
}
