package stackbench.runner.load

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.catalog.DriverSpec
import stackbench.runner.catalog.Install
import stackbench.runner.catalog.LoadModelKind
import stackbench.runner.install.DriverSetup
import stackbench.runner.plan.LoadShape
import stackbench.runner.results.LoadResult
import stackbench.runner.suite.LoadLength
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/** A driver the lab does not have: its adapter (this class, named for its id) and its catalog entry ([NewDriverTest.STUB]) are all it takes. */
class StubDriver : LoadDriver {
    override val kind = NewDriverTest.STUB

    override fun command(request: DriveRequest, executable: Path) = listOf(executable.toString(), "--hit", request.url.toString())

    override fun parse(request: DriveRequest, stdout: Path, stderr: Path, wallSeconds: Double): LoadResult {
        val answers = Files.readString(stdout).trim().toLong()
        return LoadResult(kind.id, "closed", false, wallSeconds, answers, answers, answers / wallSeconds)
    }
}

class NewDriverTest {
    companion object {
        /** The catalog entry a new driver adds (here in the test, as [DriverCatalog] holds the real ones). */
        val STUB = DriverSpec(
            id = "stub", version = "0.3.0", install = Install.Apt("stub"), localPath = ".tools/bin/stub", versionFlag = "--ver",
            models = setOf(LoadModelKind.CLOSED), countedLength = false, essential = false,
        )
    }

    private fun script(dir: Path, name: String, body: String): Path {
        Files.createDirectories(dir)
        return dir.resolve(name).also { Files.writeString(it, "#!/bin/sh\n$body\n"); it.toFile().setExecutable(true) }
    }

    @Test
    fun `a new driver is found, versioned, built and run from its catalog entry and adapter alone`(@TempDir home: Path) {
        script(home.resolve(".tools/bin"), "stub", """[ "$1" = --ver ] && { echo 'stub 0.3.0'; exit 0; }; echo 42""")

        val located = Drivers.locate(STUB, home, "")
        assertThat(located.version).isEqualTo("0.3.0")
        val ready = DriverSetup(home, PrintStream(ByteArrayOutputStream())).ready(STUB, install = false)
        assertThat(ready.driver).isInstanceOf(StubDriver::class.java)
        assertThat(ready.version).isEqualTo("stub 0.3.0")

        val request = DriveRequest(URI("http://127.0.0.1:1/noop"), "GET", null, null, LoadShape.Closed(1),
            LoadLength.Timed(Duration.ofSeconds(1)), Duration.ofSeconds(1), 1, home.resolve("out"))
        val result = DriverProcess().drive(ready.driver, request, ready.executable)
        assertThat(result.driver).isEqualTo("stub")
        assertThat(result.responses).isEqualTo(42)
    }

    @Test
    fun `a missing new driver names its install command from its entry`(@TempDir home: Path) {
        val setup = DriverSetup(home, PrintStream(ByteArrayOutputStream()))
        assertThat(setup.missing(STUB)).contains("the load generator stub is not installed; install it with:", "apt-get install -y stub")
        assertThat(runCatching { Drivers.locate(STUB, home, "") }.exceptionOrNull())
            .hasMessage("the load generator stub is not installed (looked in ${home.resolve(".tools/bin")} and PATH); install it with: apt-get install -y stub")
    }

    @Test
    fun `every catalog entry's adapter is a driver of that entry`() {
        for (spec in DriverCatalog.all) assertThat(Drivers.driver(spec).kind).isEqualTo(spec)
    }

    @Test
    fun `outside the catalog only a driver's own adapter and the default name its entry`() {
        val root = listOf(Path.of("src/main/kotlin/stackbench/runner"), Path.of("runner/src/main/kotlin/stackbench/runner")).first { Files.isDirectory(it) }
        val naming = Files.walk(root).use { s -> s.filter { it.toString().endsWith(".kt") }.toList() }
            .filter { Regex("""DriverCatalog\.(OHA|WRK)\b""").containsMatchIn(Files.readString(it)) }
            .map { root.relativize(it).toString() }.sorted()
        assertThat(naming).containsExactly("load/OhaDriver.kt", "load/WrkDriver.kt", "suite/Defaults.kt")
    }
}
