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
