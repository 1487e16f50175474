package stackbench.runner.database

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** The pure parts of the database's sampling: pg_stat_statements differenced over a window, /proc CPU times, connection samples. */
class StatementCountsTest {
    private fun s(key: String, calls: Long, ms: Double) = StatementCounter(key, "q$key", calls, ms)

    @Test
    fun `a window's statements are the end's counters less the start's`() {
        val w = StatementCounts.difference(listOf(s("read", 100, 50.0), s("write", 10, 20.0)), listOf(s("read", 1100, 550.0), s("write", 60, 120.0)))
        assertThat(w.calls).isEqualTo(1050)
        assertThat(w.execMs).isCloseTo(600.0, within(1e-9))
        assertThat(w.meanExecMs!!).isCloseTo(600.0 / 1050, within(1e-12))
        assertThat(w.statements.map { it.key to it.calls }).containsExactly("read" to 1000L, "write" to 50L)
    }

    @Test
    fun `a statement new in the window counts whole, one unchanged not at all, one reset counts from zero`() {
        val w = StatementCounts.difference(
            listOf(s("same", 5, 1.0), s("reset", 900, 90.0), s("gone", 3, 3.0)),
            listOf(s("same", 5, 1.0), s("reset", 40, 4.0), s("new", 7, 14.0)),
        )
        assertThat(w.statements.map { Triple(it.key, it.calls, it.totalExecMs) }).containsExactly(Triple("new", 7L, 14.0), Triple("reset", 40L, 4.0))
        assertThat(w.calls).isEqualTo(47)
    }

    @Test
    fun `no statement in the window has no mean`() {
        assertThat(StatementCounts.difference(emptyList(), emptyList()).meanExecMs).isNull()
    }

    @Test
    fun `a process's CPU time is its user and system ticks, whatever its command holds`() {
        val line = "4242 (postgres: stackbench stackbench 127.0.0.1(5) idle) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 1 0 100 200000000 3000 18446744073709551615"
        assertThat(ProcStat.cpuMs(line)).isEqualTo(3250.0)
        assertThat(ProcStat.cpuMs("4242 (postgres) S 1")).isNull()
        assertThat(ProcStat.cpuMs("garbage")).isNull()
    }

    @Test
    fun `connection samples summarise into means and maxima`() {
        assertThat(ActivitySample.of(listOf(10 to 2, 10 to 6, 12 to 1))).isEqualTo(ActivitySample(3, 32.0 / 3, 12, 3.0, 6))
        assertThat(ActivitySample.of(emptyList())).isEqualTo(ActivitySample.NONE)
    }

    @Test
    fun `a runner's database folder is named for it, and only the folders of runners gone are removed`(@TempDir tmp: Path) {
        assertThat(DatabaseFolders.root(77, tmp)).isEqualTo(tmp.resolve("stackbench-db-77"))
        Files.createDirectories(tmp.resolve("stackbench-db-77/cluster-1/data")).also { Files.writeString(it.resolve("PG_VERSION"), "15") }
        Files.createDirectories(tmp.resolve("stackbench-db-88/cluster-1"))
        Files.createDirectories(tmp.resolve("stackbench-db-x"))
        Files.createDirectories(tmp.resolve("other-77"))
        val removed = DatabaseFolders.removeStale(tmp) { pid -> pid == 88L }
        assertThat(removed).containsExactly(tmp.resolve("stackbench-db-77"))
        assertThat(Files.exists(tmp.resolve("stackbench-db-77"))).isFalse()
        assertThat(Files.exists(tmp.resolve("stackbench-db-88"))).isTrue()
        assertThat(Files.exists(tmp.resolve("stackbench-db-x"))).isTrue()
        assertThat(Files.exists(tmp.resolve("other-77"))).isTrue()
    }
}
