package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.results.Fixtures
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import java.nio.file.Files
import java.nio.file.Path

/** `publish DIR... --to TO`: a finished run of a clean tree with the files its pages link; any other named, exit 2. */
class PublishCommandTest {
    private fun write(dir: Path, status: RunStatus, dirty: Boolean) {
        val env = Fixtures.environment().copy(gitCommit = "7a29a2a442df3d61d5870437e2be2c0cdd1f7f93", gitDirty = dirty)
        ResultsStore(dir).write(RunResult(run = Fixtures.info().copy(suite = "s", status = status), environment = env))
        Files.writeString(dir.resolve("summary.md"), "[what grew](profiles/01-a/grew.html)\n")
        Files.createDirectories(dir.resolve("profiles/01-a"))
        Files.writeString(dir.resolve("profiles/01-a/grew.html"), "grew")
    }

    @Test
    fun `a clean finished run is published with its linked files, under its folder's name`(@TempDir tmp: Path) {
        write(tmp.resolve("results/quick-1"), RunStatus.COMPLETE, dirty = false)
        val r = captured("publish", tmp.resolve("results/quick-1").toString(), "--to", tmp.resolve("docs/runs").toString())
        assertThat(r.code).describedAs(r.err + r.out).isEqualTo(Exit.OK)
        assertThat(tmp.resolve("docs/runs/quick-1/results.json.gz")).exists()
        assertThat(tmp.resolve("docs/runs/quick-1/profiles/01-a/grew.html")).hasContent("grew")
        assertThat(r.out).contains("published ${tmp.resolve("docs/runs/quick-1")}: 3 files (1 linked by its pages)")
    }

    @Test
    fun `a run from a dirty tree is refused with the reason, and the others still published`(@TempDir tmp: Path) {
        write(tmp.resolve("results/dirty"), RunStatus.COMPLETE, dirty = true)
        write(tmp.resolve("results/clean"), RunStatus.COMPLETE, dirty = false)
        val r = captured("publish", tmp.resolve("results/dirty").toString(), tmp.resolve("results/clean").toString(), "--to", tmp.resolve("docs/runs").toString())
        assertThat(r.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(r.out).contains("not published: dirty was made from a tree with uncommitted changes at 7a29a2a442")
        assertThat(tmp.resolve("docs/runs/dirty")).doesNotExist()
        assertThat(tmp.resolve("docs/runs/clean/summary.md")).exists()
    }

    @Test
    fun `publishing again replaces the earlier publication, files it no longer writes removed and not left beside it`(@TempDir tmp: Path) {
        val target = tmp.resolve("docs/runs/quick-1")
        Files.createDirectories(target.resolve("profiles/09-old"))
        Files.writeString(target.resolve("profiles/09-old/flame.html"), "an earlier run's flame graph")
        Files.writeString(target.resolve("report.html"), "an earlier run's report")
        write(tmp.resolve("results/quick-1"), RunStatus.COMPLETE, dirty = false)
        val r = captured("publish", tmp.resolve("results/quick-1").toString(), "--to", tmp.resolve("docs/runs").toString())
        assertThat(r.code).describedAs(r.err + r.out).isEqualTo(Exit.OK)
        assertThat(target.resolve("report.html")).doesNotExist()
        assertThat(target.resolve("profiles/09-old")).doesNotExist()
        assertThat(target.resolve("profiles/01-a/grew.html")).hasContent("grew")
        assertThat(r.out).contains("; 2 file(s) of its earlier publication removed (profiles/09-old/flame.html, report.html)")
    }
}
