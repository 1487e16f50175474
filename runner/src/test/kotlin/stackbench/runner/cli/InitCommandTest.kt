package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** `init`'s refusals, each before anything starts: exit 2 naming what was wrong. */
class InitCommandTest {
    @Test
    fun `a missing jar, a file that is not a jar and a program that is not one are exit 2, named`(@TempDir dir: Path) {
        val missing = captured("init", dir.resolve("orders.jar").toString(), "-o", dir.resolve("o.yaml").toString())
        assertThat(missing.code).isEqualTo(2)
        assertThat(missing.err).contains("init:").contains("orders.jar does not exist")
        val text = Files.writeString(dir.resolve("notes.jar"), "not a zip")
        val notJar = captured("init", text.toString(), "-o", dir.resolve("o.yaml").toString())
        assertThat(notJar.code).isEqualTo(2)
        assertThat(notJar.err).contains("notes.jar is not a jar")
        val plain = Files.writeString(dir.resolve("notes.txt"), "hello")
        val notProgram = captured("init", plain.toString(), "-o", dir.resolve("o.yaml").toString())
        assertThat(notProgram.code).isEqualTo(2)
        assertThat(notProgram.err).contains("notes.txt is neither a jar nor an executable program")
        assertThat(dir.resolve("o.yaml")).doesNotExist()
    }

    @Test
    fun `an existing output file is kept without --force`(@TempDir dir: Path) {
        val out = Files.writeString(dir.resolve("orders.yaml"), "mine")
        val r = captured("init", "http://127.0.0.1:1/", "-o", out.toString())
        assertThat(r.code).isEqualTo(2)
        assertThat(r.err).contains("orders.yaml exists; --force overwrites it")
        assertThat(Files.readString(out)).isEqualTo("mine")
    }

    @Test
    fun `a URL that does not answer is exit 2, naming it and what the attempt met`(@TempDir dir: Path) {
        val port = java.net.ServerSocket(0).use { it.localPort } // closed: nothing listens there
        val r = captured("init", "http://127.0.0.1:$port", "-o", dir.resolve("s.yaml").toString())
        assertThat(r.code).isEqualTo(2)
        assertThat(r.err).contains("http://127.0.0.1:$port does not answer")
        assertThat(dir.resolve("s.yaml")).doesNotExist()
    }

    @Test
    fun `a bad --path is refused`(@TempDir dir: Path) {
        val r = captured("init", "http://127.0.0.1:1", "--path", "orders", "-o", dir.resolve("s.yaml").toString())
        assertThat(r.code).isEqualTo(2)
        assertThat(r.err).contains("--path 'orders' must start with /")
    }

    @Test
    fun `init has its help`() {
        val r = captured("init", "--help")
        assertThat(r.code).isZero()
        assertThat(r.out).contains("Writes a suite for your service").contains("--port-arg").contains("--no-pilot").contains("--force")
    }
}
