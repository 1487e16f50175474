package stackbench.runner.history

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.gate.GateFixtures
import stackbench.runner.gate.GateFixtures.PLATFORM
import stackbench.runner.gate.GateFixtures.VIRTUAL
import stackbench.runner.results.RunStatus
import java.nio.file.Files
import java.nio.file.Path
import java.sql.DriverManager

class HistoryStoreTest {
    private fun url(dir: Path) = "jdbc:sqlite:${dir.resolve("h/history.sqlite")}"

    @Test
    fun `a run indexed is listed with its environment and each configuration's figures`(@TempDir dir: Path) {
        val run = GateFixtures.run("t-1", "2026-11-27T01:00:00Z", scale = mapOf(PLATFORM to 0.5))
        HistoryStore.open(url(dir)).use { it.index(run, dir.resolve("t-1")) }
        HistoryStore.open(url(dir)).use { store ->
            val row = store.runs("t").single()
            assertThat(row.id).isEqualTo("t-1")
            assertThat(row.gitCommit).isEqualTo("aaaaaaa")
            assertThat(row.appJdk).isEqualTo("openjdk 25")
            assertThat(row.folder).isEqualTo(dir.resolve("t-1").toAbsolutePath().toString())
            val cells = store.cells("t").associateBy { it.configKey }
            assertThat(cells.keys).containsExactlyInAnyOrder(PLATFORM, VIRTUAL)
            val platform = cells.getValue(PLATFORM)
            assertThat(platform.processes).isEqualTo(3)
            assertThat(platform.windows).isEqualTo(3)
            assertThat(platform.throughput!!).isBetween(490.0, 510.0)
            assertThat(platform.throughputLow!!).isLessThanOrEqualTo(platform.throughput).isPositive()
            assertThat(platform.p99).isNotNull()
            assertThat(store.cells("t", listOf(VIRTUAL)).map { it.configKey }).containsExactly(VIRTUAL)
        }
    }

    @Test
    fun `indexing a run again replaces it rather than adding a second`(@TempDir dir: Path) {
        val run = GateFixtures.run("t-1", "2026-11-27T01:00:00Z")
        HistoryStore.open(url(dir)).use { store ->
            store.index(run, dir.resolve("t-1"))
            store.index(run.copy(cells = run.cells.filter { it.configKey == PLATFORM }), dir.resolve("t-1"))
            assertThat(store.runs()).hasSize(1)
            assertThat(store.cells("t").map { it.configKey }).containsExactly(PLATFORM)
        }
    }

    @Test
    fun `latest is the run of the same suite on the same machine started before, not the run itself`(@TempDir dir: Path) {
        HistoryStore.open(url(dir)).use { store ->
            store.index(GateFixtures.run("t-1", "2026-11-27T01:00:00Z"), dir.resolve("t-1"))
            store.index(GateFixtures.run("t-2", "2026-11-27T02:00:00Z"), dir.resolve("t-2"))
            store.index(GateFixtures.run("t-3", "2026-11-27T03:00:00Z"), dir.resolve("t-3"))
            store.index(GateFixtures.run("t-elsewhere", "2026-11-27T02:30:00Z", host = "other"), dir.resolve("t-e"))
            store.index(GateFixtures.run("u-1", "2026-11-27T02:40:00Z", suite = "u"), dir.resolve("u-1"))
            assertThat(store.latest("t", "test", "2026-11-27T03:00:00Z", "t-3")?.id).isEqualTo("t-2")
            assertThat(store.latest("t", "test", "2026-11-27T01:00:00Z", "t-1")).isNull()
            assertThat(store.latestOn("test")?.id).isEqualTo("t-3")
            assertThat(store.run("u-1")?.suite).isEqualTo("u")
            assertThat(store.runs("t").map { it.id }).containsExactly("t-1", "t-2", "t-elsewhere", "t-3")
        }
    }

    @Test
    fun `the schema is Flyway's, migrated once`(@TempDir dir: Path) {
        HistoryStore.open(url(dir)).close()
        HistoryStore.open(url(dir)).close()
        DriverManager.getConnection(url(dir)).use { c ->
            c.createStatement().executeQuery("SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL").use { rs ->
                val rows = buildList { while (rs.next()) add(rs.getString(1) to rs.getInt(2)) }
                assertThat(rows).containsExactly("1" to 1)
            }
        }
    }

    @Test
    fun `a rebuild empties the history and indexes every finished run under the folders`(@TempDir dir: Path) {
        val results = dir.resolve("results")
        GateFixtures.write(GateFixtures.run("t-1", "2026-11-27T01:00:00Z"), results)
        GateFixtures.write(GateFixtures.run("t-2", "2026-11-27T02:00:00Z"), results.resolve("findings"))
        GateFixtures.write(GateFixtures.run("t-running", "2026-11-27T03:00:00Z").let { it.copy(run = it.run.copy(status = RunStatus.RUNNING)) }, results)
        Files.createDirectories(results.resolve("broken"))
        Files.writeString(results.resolve("broken/results.json"), "{not json")
        HistoryStore.open(url(dir)).use { store ->
            store.index(GateFixtures.run("gone", "2026-11-20T00:00:00Z"), dir.resolve("gone"))
            val outcome = HistoryRebuild.rebuild(store, listOf(results))
            assertThat(outcome.indexed).containsExactlyInAnyOrder("t-1", "t-2")
            assertThat(outcome.skipped).hasSize(2).anySatisfy { assertThat(it).contains("broken", "is not JSON") }
                .anySatisfy { assertThat(it).contains("t-running", "has not finished") }
            assertThat(store.runs().map { it.id }).containsExactly("t-1", "t-2")
        }
    }

    @Test
    fun `a database that cannot be reached is an error that names it, password hidden`() {
        assertThatThrownBy { HistoryStore.open("jdbc:postgresql://127.0.0.1:1/history?user=sb&password=secret&connectTimeout=1") }
            .isInstanceOf(HistoryException::class.java)
            .hasMessageContaining("jdbc:postgresql://127.0.0.1:1/history?user=sb&password=***")
            .message().doesNotContain("secret")
    }

    @Test
    fun `the location is the flag, else the environment, else results' SQLite file`() {
        val results = Path.of("/p/results")
        assertThat(HistoryLocation.url(null, emptyMap(), results)).isEqualTo("jdbc:sqlite:/p/results/history.sqlite")
        assertThat(HistoryLocation.url(null, mapOf(HistoryLocation.ENVIRONMENT to "jdbc:postgresql://db/h"), results)).isEqualTo("jdbc:postgresql://db/h")
        assertThat(HistoryLocation.url("jdbc:postgresql://x/y", mapOf(HistoryLocation.ENVIRONMENT to "jdbc:postgresql://db/h"), results)).isEqualTo("jdbc:postgresql://x/y")
        assertThat(HistoryLocation.url("/tmp/h.sqlite", emptyMap(), results)).isEqualTo("jdbc:sqlite:/tmp/h.sqlite")
        assertThat(HistoryLocation.sqliteFile("jdbc:sqlite:/tmp/h.sqlite")).isEqualTo(Path.of("/tmp/h.sqlite"))
        assertThat(HistoryLocation.sqliteFile("jdbc:postgresql://db/h")).isNull()
        assertThat(HistoryLocation.shown("jdbc:postgresql://sb:pw@db/h")).isEqualTo("jdbc:postgresql://sb:***@db/h")
    }
}
