package stackbench.runner.database

import stackbench.runner.host.ChildProcess
import stackbench.runner.host.Host
import stackbench.runner.host.LaunchSpec
import stackbench.runner.isolation.CgroupLimits
import stackbench.runner.isolation.Confinement
import stackbench.runner.isolation.Isolation
import stackbench.runner.isolation.Taskset
import stackbench.runner.suite.DatabaseSpec
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFileAttributeView
import java.nio.file.attribute.PosixFilePermissions
import java.sql.Connection
import java.sql.DriverManager
import java.time.Duration
import java.util.Properties
import java.util.concurrent.TimeUnit

class DatabaseStartException(message: String, val logTail: List<String>) : RuntimeException(message)

/**
 * Starts the run's PostgreSQL: a new cluster in a folder of its own under [root] (owned by the `postgres` user, which
 * the server runs as), the server on 127.0.0.1 and a free port, confined in the group [groupName] (its CPUs, its memory
 * limit), the apps' role and database made, and the suite's schema file loaded with psql.
 */
class PostgresServer(
    private val host: Host,
    private val isolation: Isolation,
    private val home: Path,
    private val root: Path = DatabaseFolders.root(),
    private val commands: PostgresCommands = PostgresCommands(PostgresCommands.installed() ?: Path.of(PostgresCommands.BIN)),
) {
    fun start(spec: DatabaseSpec, cpus: List<Int>, groupName: String, log: Path): RunningDatabase {
        require(host.kind == "local") { "the database runs on this machine only, not on ${host.kind} host ${host.name}" }
        val initdb = commands.bin.resolve("initdb")
        if (!Files.isExecutable(initdb)) throw DatabaseStartException("PostgreSQL 15 is not installed: $initdb is missing (run ./stackbench doctor --fix)", emptyList())
        val schema = home.resolve(spec.schema)
        if (!Files.isRegularFile(schema)) throw DatabaseStartException("the database's schema file $schema does not exist", emptyList())
        DatabaseFolders.closedOnTheWay(root)?.let {
            throw DatabaseStartException("the database's folder $root is under $it, which the ${PostgresCommands.OS_USER} user may not enter " +
                "(mode ${PosixFilePermissions.toString(Files.getPosixFilePermissions(it))}): give the runner a temporary folder it may reach (JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=/tmp)", emptyList())
        }
        Files.createDirectories(log.parent)
        Files.createDirectories(root)
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"))
        val dir = Files.createTempDirectory(root, "cluster-")
        val data = dir.resolve("data")
        val socket = dir.resolve("socket")
        val passwordFile = dir.resolve("superuser.pw")
        val password = java.util.UUID.randomUUID().toString().replace("-", "")
        var confinement: Confinement? = null
        var child: ChildProcess? = null
        try {
            Files.createDirectories(data)
            Files.createDirectories(socket)
            Files.writeString(passwordFile, password + "\n")
            Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"))
            Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"))
            listOf(dir, data, socket, passwordFile).forEach { ownedByDatabaseUser(it) }
            runToEnd(Taskset.pinned(commands.initdb(data, passwordFile), cpus), dir, log, null, Duration.ofMinutes(2), "initdb")
            Files.deleteIfExists(passwordFile)

            val port = host.freePort()
            confinement = isolation.confine(groupName, CgroupLimits(null, cpus, spec.memoryBytes))
            child = host.launch(LaunchSpec("database", commands.server(data, port, socket, ServerSettings(spec.fsync, spec.maxConnections)), log,
                confinement = confinement, workDir = dir))
            val running = RunningDatabase(child, DatabaseEndpoint(host.address, port), password, dir, confinement, cpus)
            awaitReady(running, log)
            running.superuser("postgres").use { c -> c.createStatement().use { s -> DatabaseSetup.roleAndDatabase(running.endpoint).forEach(s::execute) } }
            running.superuser(running.endpoint.name).use { c -> c.createStatement().use { s -> DatabaseSetup.grants(running.endpoint).forEach(s::execute) } }
            runToEnd(Taskset.pinned(commands.psql(socket, port, running.endpoint.name), cpus), dir, log, schema, Duration.ofMinutes(10), "loading ${spec.schema}")
            return running
        } catch (e: Exception) {
            val tail = stackbench.runner.host.LogFiles.tail(log, 30)
            child?.let { RunningDatabase(it, DatabaseEndpoint(host.address, 0), password, dir, confinement!!, cpus).stop() }
                ?: run { confinement?.release { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }; DatabaseFolders.deleteTree(dir) }
            throw if (e is DatabaseStartException) e else DatabaseStartException("the database did not start: ${e.message}", tail)
        }
    }

    private fun awaitReady(db: RunningDatabase, log: Path) {
        val deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos()
        var last: String? = null
        while (System.nanoTime() < deadline) {
            if (!db.child.isAlive()) throw DatabaseStartException("the database exited before it was ready", stackbench.runner.host.LogFiles.tail(log, 30))
            last = runCatching { db.superuser("postgres").use { it.isValid(2) }; return }.exceptionOrNull()?.message
            Thread.sleep(50)
        }
        throw DatabaseStartException("the database was not ready within 60 s ($last)", stackbench.runner.host.LogFiles.tail(log, 30))
    }

    /**
     * Runs a setup command to its end in [workDir] (the cluster's folder, which the database user owns: never the caller's
     * working directory, which that user may not enter), its output appended to [log], [input] (a file) on its standard input.
     */
    private fun runToEnd(command: List<String>, workDir: Path, log: Path, input: Path?, timeout: Duration, what: String) {
        val builder = ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        builder.redirectInput(input?.let { ProcessBuilder.Redirect.from(it.toFile()) } ?: ProcessBuilder.Redirect.from(java.io.File("/dev/null")))
        val p = builder.start()
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly()
            throw DatabaseStartException("$what did not finish within ${timeout.seconds} s", stackbench.runner.host.LogFiles.tail(log, 30))
        }
        if (p.exitValue() != 0) throw DatabaseStartException("$what failed (exit ${p.exitValue()})", stackbench.runner.host.LogFiles.tail(log, 30))
    }

    private fun ownedByDatabaseUser(path: Path) {
        val lookup = path.fileSystem.userPrincipalLookupService
        val view = Files.getFileAttributeView(path, PosixFileAttributeView::class.java)
        view.owner = lookup.lookupPrincipalByName(PostgresCommands.OS_USER)
        view.setGroup(lookup.lookupPrincipalByGroupName(PostgresCommands.OS_USER))
    }
}

/**
 * The run's running database: its server process (the postmaster; the backends are its children), where it answers,
 * its folder and its confinement. [stop] ends it and removes its folder.
 */
class RunningDatabase(
    val child: ChildProcess,
    val endpoint: DatabaseEndpoint,
    private val superuserPassword: String,
    val dir: Path,
    val confinement: Confinement,
    val cpus: List<Int>,
) {
    /** A connection as the superuser to [database], for the lab's own setup and sampling (named, so that sampling can leave it out). */
    fun superuser(database: String): Connection {
        val props = Properties()
        props["user"] = PostgresCommands.SUPERUSER
        props["password"] = superuserPassword
        props["connectTimeout"] = "5"
        props["socketTimeout"] = "30"
        props["ApplicationName"] = LAB_APPLICATION
        return DriverManager.getConnection("jdbc:postgresql://${endpoint.host}:${endpoint.port}/$database", props)
    }

    /** The server's processes now: the postmaster and its children. */
    fun pids(): List<Long> = listOf(child.pid) + runCatching { child.process.descendants().map { it.pid() }.toList() }.getOrDefault(emptyList())

    /**
     * The server's CPU time so far, in ms: its group's, which counts every process that was in it (a backend whose
     * connection closed in the window too); without a group, /proc's of the processes alive now.
     */
    fun cpuMs(): Double = confinement.counters()?.cpuUsageNs?.let { it / 1e6 } ?: pids().sumOf { pid ->
        runCatching { ProcStat.cpuMs(Files.readString(Path.of("/proc/$pid/stat"))) }.getOrNull() ?: 0.0
    }

    /** Where [cpuMs] comes from: `cgroup` or `proc`. */
    val cpuSource: String get() = if (confinement.counters()?.cpuUsageNs != null) "cgroup" else "proc"

    /**
     * A fast shutdown (SIGINT: clients disconnected, no checkpoint wait), SIGKILL to what is left after [grace]; then the
     * group and the cluster's folder go. Safe to call twice.
     */
    @Synchronized
    fun stop(grace: Duration = Duration.ofSeconds(10)) {
        try {
            if (child.isAlive()) {
                runCatching { ProcessBuilder("kill", "-INT", child.pid.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(5, TimeUnit.SECONDS) }
                runCatching { child.process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS) }
            }
            child.stop(Duration.ofSeconds(2))
        } finally {
            runCatching { confinement.release { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } } }
            DatabaseFolders.deleteTree(dir)
            // the runner's folder goes with its last cluster (the watchdog removes it anyway when the runner ends)
            runCatching { Files.deleteIfExists(dir.parent) }
        }
    }

    companion object {
        const val LAB_APPLICATION = "stackbench-lab"
    }
}
