package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

class SecretSweepTest {
    private val env = mapOf("TOKEN" to "s3cr3t-value", "KEY" to "k/1")

    @Test
    fun `every file that echoed a value gets its placeholder back, the rest is left alone`(@TempDir dir: Path) {
        val cell = Files.createDirectories(dir.resolve("cells/001"))
        Files.writeString(cell.resolve("app.log"), "GET /q?key=k%2F1 Authorization: Bearer s3cr3t-value\n")
        Files.writeString(cell.resolve("stdout.txt"), "nothing to see\n")
        Files.write(cell.resolve("profile.jfr"), "s3cr3t-value".toByteArray())
        val untouched = Files.getLastModifiedTime(cell.resolve("stdout.txt"))

        val rewritten = SecretSweep.sweep(dir, listOf("TOKEN", "KEY"), env)

        assertThat(rewritten).containsExactly(Path.of("cells/001/app.log"))
        assertThat(Files.readString(cell.resolve("app.log"))).isEqualTo("GET /q?key=%24%7Benv:KEY%7D Authorization: Bearer \${env:TOKEN}\n")
        assertThat(Files.getLastModifiedTime(cell.resolve("stdout.txt"))).isEqualTo(untouched)
        assertThat(Files.readString(cell.resolve("profile.jfr"))).`as`("a binary recording is not rewritten").isEqualTo("s3cr3t-value")
        assertThat(SecretSweep.sweep(dir, emptyList(), env)).isEmpty()
    }

    @Test
    fun `the record keeps the placeholder when an excerpt caught a value`(@TempDir dir: Path) {
        assertThat(stackbench.runner.suite.Secrets.redact("logTail: Bearer s3cr3t-value", listOf("TOKEN"), env)).isEqualTo("logTail: Bearer \${env:TOKEN}")
    }
}
