package stackbench.runner.database

import stackbench.runner.host.LocalHost
import stackbench.runner.host.ProcessRegistry
import stackbench.runner.host.Watchdog
import stackbench.runner.isolation.Isolation
import stackbench.runner.suite.DatabaseSpec
import java.nio.file.Path

/**
 * A runner in small, for [DatabaseRoleIT]: starts its watchdog and the database as the runner does (its group, its
 * folder, its parent-death signal), prints `READY <jdbc url> <cluster folder> <server pids>`, then waits to be killed.
 * Arguments: the lab's home, the log file.
 */
object DatabaseHolder {
    @JvmStatic
    fun main(args: Array<String>) {
        val home = Path.of(args[0])
        val isolation = Isolation.detect()
        val pid = ProcessHandle.current().pid()
        Watchdog.start("-Dstackbench.run=none", "-Xlog:gc:file=none/", "sb$pid", isolation.groupRoots, dir = DatabaseFolders.root())
        val registry = ProcessRegistry()
        val db = PostgresServer(LocalHost(registry), isolation, home).start(DatabaseSpec(), emptyList(), "sb$pid-database", Path.of(args[1]))
        // the backends the first connections start are the postmaster's children too; a connection makes one
        db.superuser(db.endpoint.name).use { it.isValid(2) }
        println("READY ${db.endpoint.jdbcUrl} ${db.dir} ${db.pids().joinToString(",")}")
        System.out.flush()
        Thread.sleep(600_000)
    }
}
