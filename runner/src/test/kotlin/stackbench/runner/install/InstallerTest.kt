package stackbench.runner.install

import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.catalog.ToolCatalog
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

/** The builds of a plan run at the same time, each into its own log; a failed one shows the end of its log. */
class InstallerTest {
    @Test
    fun `two builds run at the same time, each into its log, with progress lines`(@TempDir tools: Path) {
        val out = ByteArrayOutputStream()
        val sh = { id: String, script: String -> Step(listOf(id), listOf("/bin/sh", "-c", script), minutes = 1) }
        val plan = InstallPlan(
            apt = emptyList(),
            builds = listOf(sh("slow", "echo compiling slow; sleep 1.5; echo done"), sh("broken", "echo compiling broken; sleep 0.3; echo 'error: no'; exit 3")),
            messages = listOf("fast is built with go, which is not installed"), left = emptyList(),
        )
        val started = System.nanoTime()
        val outcome = Installer(tools, PrintStream(out, true, Charsets.UTF_8), every = Duration.ofMillis(500)).carry(plan)
        val took = Duration.ofNanos(System.nanoTime() - started)

        assertThat(outcome).isEqualTo(Installer.Outcome(installed = listOf("slow"), failed = listOf("broken")))
        assertThat(took).isLessThan(Duration.ofMillis(1_800 + 1_000)) // 1.5 s and 0.3 s side by side, not one after the other plus slack
        assertThat(Files.readString(tools.resolve("logs/install-slow.log"))).isEqualTo("compiling slow\ndone\n")
        val text = out.toString(Charsets.UTF_8)
        assertThat(text)
            .contains("stackbench: fast is built with go, which is not installed")
            .contains("stackbench: building slow and broken at the same time (about 1 minutes the first time); the output goes to:")
            .contains(tools.resolve("logs/install-broken.log").toString())
            .contains("building broken failed (exit 3")
            .contains("  broken| error: no")
            .contains("broken failed")
            .containsPattern("stackbench: slow built in \\d+s")
    }

    @Test
    fun `an empty plan says there is nothing to install, or only why it cannot`(@TempDir tools: Path) {
        fun carry(plan: InstallPlan) = ByteArrayOutputStream().also { Installer(tools, PrintStream(it, true, Charsets.UTF_8)).carry(plan, "all here") }.toString(Charsets.UTF_8)
        assertThat(carry(InstallPlan(emptyList(), emptyList(), emptyList(), emptyList()))).isEqualTo("stackbench: all here\n")
        assertThat(carry(InstallPlan(emptyList(), emptyList(), listOf("oha is built with cargo, which is not installed"), listOf(ToolCatalog.of(DriverCatalog.OHA)))))
            .isEqualTo("stackbench: oha is built with cargo, which is not installed\n")
        assertThat(tools.resolve("logs")).doesNotExist()
    }
}
