package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.gate.GateFixtures
import stackbench.runner.history.HistoryLocation
import stackbench.runner.history.HistoryStore
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path

class HistoryIndexingTest {
    private fun console() = ByteArrayOutputStream().let { it to PrintStream(it, true, Charsets.UTF_8) }

    @Test
    fun `a finished run is added to the history the environment names`(@TempDir dir: Path) {
        val run = GateFixtures.write(GateFixtures.run("t-1", "2026-11-27T01:00:00Z"), dir)
        val db = dir.resolve("h.sqlite")
        val (bytes, out) = console()
        HistoryIndexing.index(run, out, mapOf(HistoryLocation.ENVIRONMENT to db.toString()))
        assertThat(bytes.toString(Charsets.UTF_8)).startsWith("history: indexed in jdbc:sqlite:")
        HistoryStore.open("jdbc:sqlite:$db").use { assertThat(it.runs().map { r -> r.id }).containsExactly("t-1") }
    }

    @Test
    fun `a history that cannot be written is a warning, and the run's results stay`(@TempDir dir: Path) {
        val run = GateFixtures.write(GateFixtures.run("t-1", "2026-11-27T01:00:00Z"), dir)
        val notAFile = Files.createDirectories(dir.resolve("a-folder.sqlite"))
        val (bytes, out) = console()
        HistoryIndexing.index(run, out, mapOf(HistoryLocation.ENVIRONMENT to notAFile.toString()))
        assertThat(bytes.toString(Charsets.UTF_8)).startsWith("stackbench: warning: the run was not added to the history").contains("history --rebuild")
        assertThat(run.resolve("results.json")).isRegularFile()
    }

    @Test
    fun `a run outside the project's results is not indexed unless a history is named`(@TempDir dir: Path) {
        val run = GateFixtures.write(GateFixtures.run("t-1", "2026-11-27T01:00:00Z"), dir)
        val (bytes, out) = console()
        HistoryIndexing.index(run, out, emptyMap())
        assertThat(bytes.toString(Charsets.UTF_8)).isEmpty()
    }

    @Test
    fun `run --history names the store over the environment, also for a run outside results`(@TempDir dir: Path) {
        val run = GateFixtures.write(GateFixtures.run("t-1", "2026-11-27T01:00:00Z"), dir)
        val flag = dir.resolve("flag.sqlite")
        val env = dir.resolve("env.sqlite")
        val (bytes, out) = console()
        HistoryIndexing.index(run, out, mapOf(HistoryLocation.ENVIRONMENT to env.toString()), given = flag.toString())
        assertThat(bytes.toString(Charsets.UTF_8)).contains(flag.toString())
        HistoryStore.open("jdbc:sqlite:$flag").use { assertThat(it.runs().map { r -> r.id }).containsExactly("t-1") }
        assertThat(env).doesNotExist()
    }
}
