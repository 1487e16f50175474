package stackbench.runner.env

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

class EnvironmentProbeTest {
    private fun git(dir: Path, vararg args: String) {
        val p = ProcessBuilder(listOf("git", "-C", dir.toString(), "-c", "user.email=lab@example.org", "-c", "user.name=lab") + args)
            .redirectErrorStream(true).start()
        assertThat(p.waitFor()).`as`(p.inputStream.bufferedReader().readText()).isZero()
    }

    @Test
    fun `a run's own results folder inside the checkout is not a change of the tree it ran from, a file beside it is`(@TempDir repo: Path) {
        git(repo, "init", "-q")
        val home = Files.createDirectories(repo.resolve("lab"))
        Files.writeString(home.resolve("suite.yaml"), "name: s\n")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "suite")
        val out = Files.createDirectories(home.resolve("results/run-1"))
        Files.writeString(out.resolve("results.json"), "{}")

        assertThat(EnvironmentProbe.gitStatus(home)).`as`("without the exception the results count").containsExactly("?? lab/results/")
        assertThat(EnvironmentProbe.gitStatus(home, out)).`as`("the run's own folder").isEmpty()

        Files.writeString(home.resolve("results/notes.txt"), "by hand")
        Files.writeString(repo.resolve("README"), "outside the lab's folder, in its repository")
        assertThat(EnvironmentProbe.gitStatus(home, out)).containsExactlyInAnyOrder("?? README", "?? lab/results/")
    }

    @Test
    fun `a results folder outside the checkout adds no pathspec`() {
        assertThat(EnvironmentProbe.statusPathspec(Path.of("/work/lab"), Path.of("/tmp/runs/a"))).isEmpty()
        assertThat(EnvironmentProbe.statusPathspec(Path.of("/work/lab"), Path.of("/work/lab"))).isEmpty()
        assertThat(EnvironmentProbe.statusPathspec(Path.of("/work/lab"), null)).isEmpty()
        assertThat(EnvironmentProbe.statusPathspec(Path.of("/work/lab"), Path.of("/work/lab/results/r"))).containsExactly("--", ":/", ":(exclude)results/r")
    }
}
