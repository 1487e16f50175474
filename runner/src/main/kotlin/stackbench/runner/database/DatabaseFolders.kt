package stackbench.runner.database

import java.nio.file.Files
import java.nio.file.Path

/**
 * Where a runner's database clusters live: one folder per runner, `stackbench-db-<pid>` in the temporary folder (on
 * the machine's disk, so that fsync means what it says), a cluster per run in it. The run's watchdog kills what runs
 * from it and removes it when the runner dies; a later runner removes what a runner that is gone left.
 */
object DatabaseFolders {
    private const val PREFIX = "stackbench-db-"

    fun root(pid: Long = ProcessHandle.current().pid(), tmp: Path = Path.of(System.getProperty("java.io.tmpdir"))): Path = tmp.resolve("$PREFIX$pid")

    /**
     * The first folder on the way to [path] that a user other than its owner may not enter (no `x` for others), or null
     * when every one may be: the database's OS user must pass through each to reach its cluster.
     */
    fun closedOnTheWay(path: Path): Path? {
        var p: Path? = path.toAbsolutePath().normalize().parent
        val closed = mutableListOf<Path>()
        while (p != null) {
            if (Files.isDirectory(p) && java.nio.file.attribute.PosixFilePermission.OTHERS_EXECUTE !in Files.getPosixFilePermissions(p)) closed.add(p)
            p = p.parent
        }
        return closed.lastOrNull()
    }

    /** Removes the folders of runners no longer alive; returns them. */
    fun removeStale(tmp: Path = Path.of(System.getProperty("java.io.tmpdir")), alive: (Long) -> Boolean = { ProcessHandle.of(it).isPresent }): List<Path> {
        val stale = Files.list(tmp).use { s ->
            s.filter { it.fileName.toString().startsWith(PREFIX) }
                .filter { p -> p.fileName.toString().removePrefix(PREFIX).toLongOrNull()?.let { !alive(it) } ?: false }.toList()
        }
        stale.forEach { deleteTree(it) }
        return stale
    }

    fun deleteTree(dir: Path) {
        if (!Files.exists(dir)) return
        Files.walk(dir).use { s -> s.sorted(Comparator.reverseOrder()).toList() }.forEach { runCatching { Files.deleteIfExists(it) } }
    }
}
