package stackbench.runner.database

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** PostgreSQL's command lines as the lab starts them: as the postgres user, killed with their parent, on loopback. */
class PostgresCommandsTest {
    private val commands = PostgresCommands(Path.of("/pg/bin"), setpriv = "/usr/bin/setpriv")
    private val asPostgres = listOf("/usr/bin/setpriv", "--pdeathsig", "KILL", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--")

    @Test
    fun `initdb makes a cluster with a superuser password, peer login on the socket and SCRAM on TCP`() {
        assertThat(commands.initdb(Path.of("/tmp/c/data"), Path.of("/tmp/c/pw"))).containsExactlyElementsOf(asPostgres + listOf(
            "/pg/bin/initdb", "-D", "/tmp/c/data", "-U", "postgres", "--pwfile=/tmp/c/pw", "--auth-local=peer", "--auth-host=scram-sha-256",
            "-E", "UTF8", "--no-locale", "--no-sync",
        ))
    }

    @Test
    fun `the server listens on loopback and its own socket, with pg_stat_statements loaded and fsync as the suite says`() {
        val on = commands.server(Path.of("/tmp/c/data"), 54321, Path.of("/tmp/c/socket"), ServerSettings(fsync = true, maxConnections = 300))
        assertThat(on).containsExactlyElementsOf(asPostgres + listOf(
            "/pg/bin/postgres", "-D", "/tmp/c/data", "-p", "54321",
            "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=/tmp/c/socket", "-c", "shared_preload_libraries=pg_stat_statements",
            "-c", "pg_stat_statements.track=top", "-c", "fsync=on", "-c", "max_connections=300", "-c", "logging_collector=off", "-c", "log_min_messages=warning",
        ))
        val off = commands.server(Path.of("/d"), 1, Path.of("/s"), ServerSettings(fsync = false, maxConnections = 20))
        assertThat(off).contains("fsync=off", "max_connections=20").doesNotContain("fsync=on")
    }

    @Test
    fun `psql loads a file from its standard input over the socket and stops at the first error`() {
        assertThat(commands.psql(Path.of("/tmp/c/socket"), 54321, "stackbench")).containsExactlyElementsOf(asPostgres + listOf(
            "/pg/bin/psql", "-X", "-q", "-h", "/tmp/c/socket", "-p", "54321", "-U", "postgres", "-d", "stackbench", "-v", "ON_ERROR_STOP=1", "-f", "-",
        ))
    }

    @Test
    fun `the apps' role owns its database and is granted what the superuser's schema creates`() {
        val endpoint = DatabaseEndpoint("127.0.0.1", 5432, password = "it's")
        assertThat(DatabaseSetup.roleAndDatabase(endpoint)).containsExactly(
            "CREATE ROLE stackbench LOGIN PASSWORD 'it''s'", "CREATE DATABASE stackbench OWNER stackbench")
        assertThat(DatabaseSetup.grants(endpoint)).contains("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON TABLES TO stackbench")
    }

    @Test
    fun `the newest installed major is the one used`(@TempDir root: Path) {
        assertThat(PostgresCommands.installed(root)).isNull()
        for (major in listOf(15, 16)) {
            val bin = Files.createDirectories(root.resolve("$major/bin"))
            Files.createFile(bin.resolve("postgres")).toFile().setExecutable(true)
        }
        assertThat(PostgresCommands.installed(root)).isEqualTo(root.resolve("16/bin"))
    }

    @Test
    fun `an app is given the JDBC data source, and a reactive one the R2DBC one too`() {
        val endpoint = DatabaseEndpoint("127.0.0.1", 5999)
        assertThat(endpoint.springArgs(reactive = false)).containsExactly(
            "--spring.datasource.url=jdbc:postgresql://127.0.0.1:5999/stackbench", "--spring.datasource.username=stackbench", "--spring.datasource.password=stackbench")
        assertThat(endpoint.springArgs(reactive = true)).endsWith(
            "--spring.r2dbc.url=r2dbc:postgresql://127.0.0.1:5999/stackbench", "--spring.r2dbc.username=stackbench", "--spring.r2dbc.password=stackbench")
        assertThat(endpoint.placeholders()).containsEntry("{db.jdbc-url}", "jdbc:postgresql://127.0.0.1:5999/stackbench")
            .containsEntry("{db.r2dbc-url}", "r2dbc:postgresql://127.0.0.1:5999/stackbench").containsEntry("{db.port}", "5999")
            .containsOnlyKeys(stackbench.runner.suite.DatabaseSpec.PLACEHOLDERS)
    }
}
