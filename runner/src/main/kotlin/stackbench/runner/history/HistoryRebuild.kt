package stackbench.runner.history

import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import java.nio.file.Files
import java.nio.file.Path
import kotlin.io.path.isDirectory
import kotlin.io.path.isRegularFile
import kotlin.streams.toList

/** The history made again from results folders: every finished run found under them indexed, the rest named. */
object HistoryRebuild {
    /** How deep under a folder runs are looked for (results/<run>, results/findings/<run>...). */
    const val DEPTH = 4

    data class Outcome(val indexed: List<String>, val skipped: List<String>)

    /** Empties [store] and indexes every run under [dirs]. */
    fun rebuild(store: HistoryStore, dirs: List<Path>): Outcome {
        val folders = dirs.flatMap { runFolders(it) }.distinct()
        store.clear()
        val indexed = mutableListOf<String>()
        val skipped = mutableListOf<String>()
        for (folder in folders) {
            val result = try {
                ResultsStore.read(folder)
            } catch (e: IllegalArgumentException) {
                skipped += "$folder: ${e.message}"
                continue
            }
            if (result.run.status == RunStatus.RUNNING) {
                skipped += "$folder: the run has not finished"
                continue
            }
            store.index(result, folder)
            indexed += result.run.id
        }
        return Outcome(indexed, skipped)
    }

    /** The folders under [dir] (or [dir] itself) that hold a results.json or results.json.gz, sorted. */
    fun runFolders(dir: Path): List<Path> {
        require(dir.isDirectory()) { "$dir is not a folder" }
        return Files.walk(dir, DEPTH).use { paths ->
            paths.filter { it.isRegularFile() && (it.fileName.toString() == ResultsStore.JSON_FILE || it.fileName.toString() == ResultsStore.GZIP_FILE) }
                .map { it.parent }.toList()
        }.distinct().sorted()
    }
}
