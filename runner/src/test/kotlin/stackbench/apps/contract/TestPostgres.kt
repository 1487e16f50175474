package stackbench.apps.contract

import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.util.concurrent.TimeUnit

/**
 * A throwaway PostgreSQL for the tests: Debian's PostgreSQL 15 binaries, run as the `postgres` OS user (the server
 * refuses root) in a temporary data directory, on 127.0.0.1 and a free port, password authentication over TCP; the
 * role and database `stackbench` (password `stackbench`) with the `item` table of `db/item.sql` loaded. [close] stops
 * it and deletes the directory (also from a shutdown hook, should the tests' JVM end first).
 */
class TestPostgres private constructor(val port: Int, private val dir: Path) : AutoCloseable {
    private val data: Path = dir.resolve("data")
    private val hook = Thread { stop() }

    val jdbcUrl: String get() = "jdbc:postgresql://127.0.0.1:$port/$NAME"
    val r2dbcUrl: String get() = "r2dbc:postgresql://127.0.0.1:$port/$NAME"

    /** The Spring properties that give an app this database, by JDBC and by R2DBC. */
    fun appArgs(): List<String> = listOf(
        "--spring.datasource.url=$jdbcUrl", "--spring.datasource.username=$NAME", "--spring.datasource.password=$NAME",
        "--spring.r2dbc.url=$r2dbcUrl", "--spring.r2dbc.username=$NAME", "--spring.r2dbc.password=$NAME",
    )

    /** Runs [sql] as the superuser over the local socket, answering psql's unaligned output. */
    fun psql(sql: String, database: String = NAME): String =
        run(listOf(bin("psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", dir.toString(), "-p", "$port", "-U", "postgres", "-d", database, "-c", sql))

    override fun close() {
        stop()
        runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
    }

    private fun stop() {
        if (Files.exists(data.resolve("postmaster.pid"))) {
            runCatching { run(listOf(bin("pg_ctl"), "stop", "-D", data.toString(), "-m", "immediate", "-w")) }
        }
        dir.toFile().deleteRecursively()
    }

    companion object {
        const val NAME = "stackbench"
        val BIN: Path = Paths.get(System.getProperty("stackbench.test.postgres-bin", "/usr/lib/postgresql/15/bin"))

        /** Why the tests that need PostgreSQL cannot run here, or null when they can. */
        fun unavailable(): String? = when {
            !Files.isExecutable(BIN.resolve("initdb")) -> "PostgreSQL 15 is not installed (${BIN.resolve("initdb")}: apt-get install postgresql-15)"
            ProcessBuilder("id", "-u", "postgres").start().waitFor() != 0 -> "there is no 'postgres' OS user to run PostgreSQL as"
            else -> null
        }

        fun start(): TestPostgres {
            val dir = Files.createTempDirectory("stackbench-test-pg")
            run(listOf("chown", "postgres", dir.toString()), asPostgres = false)
            val pg = TestPostgres(JavaProcess.freePort(), dir)
            Runtime.getRuntime().addShutdownHook(pg.hook)
            try {
                val password = dir.resolve("pw")
                Files.writeString(password, "postgres\n")
                run(listOf("chown", "postgres", password.toString()), asPostgres = false)
                run(listOf(bin("initdb"), "-D", pg.data.toString(), "-U", "postgres", "--pwfile=$password", "-E", "UTF8",
                    "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync"))
                run(listOf(bin("pg_ctl"), "start", "-D", pg.data.toString(), "-w", "-t", "60", "-l", dir.resolve("server.log").toString(),
                    "-o", "-p ${pg.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=$dir -c fsync=off"))
                pg.psql("create role $NAME login password '$NAME'", database = "postgres")
                pg.psql("create database $NAME owner $NAME", database = "postgres")
                val schema = TestPostgres::class.java.getResource("/db/item.sql")!!.readText()
                pg.psql("set role $NAME; $schema")
                return pg
            } catch (e: Throwable) {
                pg.close()
                throw e
            }
        }

        private fun bin(name: String) = BIN.resolve(name).toString()

        /**
         * Runs [command] (as `postgres` unless told otherwise) from `/`, a folder every user may enter (never the tests'
         * working directory: a clone in a private folder is one `postgres` cannot enter), at most 90 s, answering its
         * standard output alone; its standard error is kept for the failure message and never read as an answer.
         */
        private fun run(command: List<String>, asPostgres: Boolean = true): String {
            val full = if (asPostgres) listOf("runuser", "-u", "postgres", "--") + command else command
            val errors = Files.createTempFile("stackbench-test-pg", ".err")
            try {
                val process = ProcessBuilder(full).directory(java.io.File("/")).redirectError(errors.toFile()).start()
                val output = process.inputStream.readAllBytes().decodeToString()
                check(process.waitFor(90, TimeUnit.SECONDS)) { "${full.joinToString(" ")} did not end in 90 s" }
                check(process.exitValue() == 0) { "${full.joinToString(" ")} exited ${process.exitValue()}:\n$output${Files.readString(errors)}" }
                return output.trim()
            } finally {
                Files.deleteIfExists(errors)
            }
        }
    }
}
