package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path

class VersionTest {
    @Test
    fun `--version prints the version and the commit of the checkout, and exits 0`() {
        val ran = captured("--version")
        assertThat(ran.code).isZero()
        // the tests run from this checkout: its commit, with + when the tree has changes
        assertThat(ran.out.trim()).matches("stackbench .+, commit [0-9a-f]{12}(\\+ \\(uncommitted changes\\))?")
    }

    @Test
    fun `outside a git checkout it says so, naming the folder`(@TempDir dir: Path) {
        assertThat(Version.line(dir)).startsWith("stackbench ").endsWith("not a git checkout: $dir")
    }
}
