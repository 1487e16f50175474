package stackbench.runner.cli

import stackbench.runner.results.ResultsStore
import java.nio.file.Files
import java.nio.file.Path

/** Where a run of the history is read from, for the commands that read one (`gate`, `plan`). */
internal object HistoryRuns {
    /**
     * The results folder of the run [id] that the history indexed at [indexed]: that folder, else a folder of its id in this
     * project's results (a checkout moved, a CI cache restored elsewhere); null when neither holds its results.
     */
    fun folder(indexed: String, id: String): Path? =
        listOf(Path.of(indexed), Home.results.resolve(id)).firstOrNull { Files.exists(ResultsStore.fileOf(it)) }
}
