package stackbench.runner.database

import stackbench.runner.testing.Foreground
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.suite.DatabaseSpec
import stackbench.runner.testing.Needs
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions
import java.sql.DriverManager
import java.util.concurrent.TimeUnit

/**
 * The database role for real: PostgreSQL started as the runner starts it (as the `postgres` user, its own folder, the
 * default schema), answering the apps' JDBC URL, and nothing of it left, neither a process nor its folder, after the
 * runner that started it is killed with SIGKILL. The runner works from a folder of mode 700 (a clone in root's home, a
 * private CI workspace), which the `postgres` user cannot enter: no command of the database's may depend on it.
 */
@Foreground
class DatabaseRoleIT {
    private val home = Path.of(System.getProperty("stackbench.home"))
    private val java = Path.of(System.getProperty("java.home"), "bin", "java")

    @Test
    fun `a database whose runner is killed with SIGKILL leaves no process and no folder`(@TempDir dir: Path) {
        Needs.that(Files.isExecutable(Path.of(PostgresCommands.BIN, "postgres")), "PostgreSQL 15 is not installed (./stackbench doctor --fix)")
        Needs.that(System.getProperty("user.name") == "root", "root, to run PostgreSQL as the postgres user")
        val out = dir.resolve("holder.out")
        val log = dir.resolve("postgres.log")
        val private = Files.createDirectory(dir.resolve("private"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
        val holder = ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), DatabaseHolder::class.java.name,
            home.toString(), log.toString())
            .directory(private.toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start()
        var pids: List<Long> = emptyList()
        var cluster: Path? = null
        try {
            val ready = awaitReady(out, holder)
            val (url, folder, serverPids) = ready.removePrefix("READY ").split(' ')
            cluster = Path.of(folder)
            pids = serverPids.split(',').map { it.toLong() }
            assertThat(pids).`as`("the postmaster and its children").hasSizeGreaterThan(1)
            assertThat(Files.isDirectory(cluster.resolve("data"))).isTrue()
            assertThat(url).matches("jdbc:postgresql://127\\.0\\.0\\.1:\\d+/stackbench")
            assertThat(Files.readString(log)).`as`("initdb, the server and psql, run from a runner whose folder postgres cannot enter")
                .doesNotContain("could not change directory").doesNotContain("Permission denied")

            DriverManager.getConnection(url, DatabaseSpec.USER, DatabaseSpec.PASSWORD).use { c ->
                c.createStatement().use { s ->
                    s.executeQuery("SELECT count(*), max(id) FROM item").use { rs ->
                        assertThat(rs.next()).isTrue()
                        assertThat(rs.getLong(1)).isEqualTo(10_000)
                        assertThat(rs.getLong(2)).isEqualTo(10_000)
                    }
                    assertThat(s.executeUpdate("UPDATE item SET qty = qty + 1, updated_at = now() WHERE id = 7")).isEqualTo(1)
                    s.executeQuery("SELECT current_user, (SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements')").use { rs ->
                        rs.next()
                        assertThat(rs.getString(1)).isEqualTo(DatabaseSpec.USER)
                        assertThat(rs.getInt(2)).`as`("pg_stat_statements in the database").isEqualTo(1)
                    }
                }
            }
            // a backend whose connection closed may be gone already: the ones still running
            assertThat(pids.mapNotNull { ProcessHandle.of(it).flatMap { p -> p.info().user() }.orElse(null) })
                .`as`("every server process runs as postgres, none as root").isNotEmpty().containsOnly(PostgresCommands.OS_USER)

            assertThat(ProcessBuilder("kill", "-KILL", holder.pid().toString()).start().waitFor()).isZero()
            holder.waitFor(10, TimeUnit.SECONDS)
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15)
            while (System.nanoTime() < deadline && (pids.any { alive(it) } || Files.exists(cluster))) Thread.sleep(100)
            assertThat(pids.filter { alive(it) }).`as`("server processes left 15 s after the runner's SIGKILL").isEmpty()
            assertThat(Files.exists(cluster)).`as`("the cluster's folder $cluster").isFalse()
            assertThat(Files.exists(cluster.parent)).`as`("the runner's database folder ${cluster.parent}").isFalse()
        } finally {
            holder.destroyForcibly()
            pids.forEach { ProcessHandle.of(it).ifPresent { p -> p.destroyForcibly() } }
            cluster?.parent?.let { DatabaseFolders.deleteTree(it) }
        }
    }

    private fun alive(pid: Long) = ProcessHandle.of(pid).map { it.isAlive }.orElse(false)

    private fun awaitReady(out: Path, holder: Process): String {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
        while (System.nanoTime() < deadline) {
            Files.readAllLines(out).firstOrNull { it.startsWith("READY ") }?.let { return it }
            if (!holder.isAlive) break
            Thread.sleep(100)
        }
        throw AssertionError("the database did not start:\n" + Files.readString(out))
    }
}
