package stackbench.runner.database

import stackbench.runner.catalog.ToolCatalog
import java.nio.file.Path

/**
 * The command lines of Debian's PostgreSQL 15 (`initdb`, `postgres`, `psql`), pure so that tests pin them. PostgreSQL
 * refuses to run as root: each runs as the `postgres` OS user through `setpriv`, which also asks the kernel to kill it
 * when the process that started it dies (the parent-death signal is set after the change of user, which would clear it).
 */
class PostgresCommands(
    val bin: Path = Path.of(BIN),
    private val setpriv: String = "setpriv",
    private val osUser: String = OS_USER,
) {
    /** [command] run as the database's OS user, killed with its parent. */
    fun asDatabaseUser(command: List<String>): List<String> =
        listOf(setpriv, "--pdeathsig", "KILL", "--reuid=$osUser", "--regid=$osUser", "--clear-groups", "--") + command

    /** A new cluster in [data]: the superuser [SUPERUSER] with the password in [passwordFile]; peer login on the socket, SCRAM on TCP. */
    fun initdb(data: Path, passwordFile: Path): List<String> = asDatabaseUser(listOf(
        bin.resolve("initdb").toString(), "-D", data.toString(), "-U", SUPERUSER, "--pwfile=$passwordFile",
        "--auth-local=peer", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync",
    ))

    /** The server: on 127.0.0.1:[port] and a socket in [socketDir], with pg_stat_statements loaded and fsync as [settings] say. */
    fun server(data: Path, port: Int, socketDir: Path, settings: ServerSettings): List<String> = asDatabaseUser(buildList {
        add(bin.resolve("postgres").toString())
        add("-D"); add(data.toString())
        add("-p"); add(port.toString())
        for ((k, v) in settings.options(socketDir)) { add("-c"); add("$k=$v") }
    })

    /** psql as the superuser over the socket (peer login), reading SQL from its standard input, stopping at the first error. */
    fun psql(socketDir: Path, port: Int, database: String): List<String> = asDatabaseUser(listOf(
        bin.resolve("psql").toString(), "-X", "-q", "-h", socketDir.toString(), "-p", port.toString(), "-U", SUPERUSER, "-d", database,
        "-v", "ON_ERROR_STOP=1", "-f", "-",
    ))

    companion object {
        const val BIN = "/usr/lib/postgresql/15/bin"

        /** The newest installed major's binaries ([stackbench.runner.catalog.ToolCatalog.POSTGRES_MAJORS]), or null when none is. */
        fun installed(root: Path = Path.of("/usr/lib/postgresql")): Path? = ToolCatalog.POSTGRES_MAJORS.map { root.resolve("$it/bin") }
            .firstOrNull { java.nio.file.Files.isExecutable(it.resolve("postgres")) }
        const val OS_USER = "postgres"
        const val SUPERUSER = "postgres"
    }
}

/** The server's settings the lab chooses (`-c key=value`). */
data class ServerSettings(val fsync: Boolean, val maxConnections: Int) {
    fun options(socketDir: Path): List<Pair<String, String>> = listOf(
        "listen_addresses" to "127.0.0.1",
        "unix_socket_directories" to socketDir.toString(),
        "shared_preload_libraries" to "pg_stat_statements",
        "pg_stat_statements.track" to "top",
        "fsync" to if (fsync) "on" else "off",
        "max_connections" to maxConnections.toString(),
        "logging_collector" to "off",
        "log_min_messages" to "warning",
    )
}

/** The SQL that makes the apps' role and database, and lets the role use what the schema file (loaded by the superuser) creates. */
object DatabaseSetup {
    fun roleAndDatabase(endpoint: DatabaseEndpoint): List<String> = listOf(
        "CREATE ROLE ${endpoint.user} LOGIN PASSWORD '${endpoint.password.replace("'", "''")}'",
        "CREATE DATABASE ${endpoint.name} OWNER ${endpoint.user}",
    )

    fun grants(endpoint: DatabaseEndpoint): List<String> = listOf(
        "GRANT ALL ON SCHEMA public TO ${endpoint.user}",
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON TABLES TO ${endpoint.user}",
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL ON SEQUENCES TO ${endpoint.user}",
        "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT EXECUTE ON FUNCTIONS TO ${endpoint.user}",
    )
}
