package stackbench.dist

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * The install without a build (docs/install.md), as a user does it: the archive this module's build made (nothing
 * built here) unpacked, installed into a new prefix with its one command, then the installed command run from another
 * folder: `--version` names the build's commit, `plan quick` finds the built-in suite, `plan` reads a suite of the
 * user's folder, `build` is refused (an install has no sources), and nothing is written into the install by them.
 */
class InstallIT {
    private val archive = Path.of(System.getProperty("stackbench.archive") ?: error("stackbench.archive: the archive's path (set by dist/pom.xml)"))
    private val version = System.getProperty("stackbench.version") ?: error("stackbench.version")

    data class Ran(val exit: Int, val out: String, val err: String)

    private fun run(dir: Path, vararg command: String): Ran {
        val out = Files.createTempFile("install-it", ".out")
        val err = Files.createTempFile("install-it", ".err")
        val p = ProcessBuilder(*command).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start()
        check(p.waitFor(3, TimeUnit.MINUTES)) { p.destroyForcibly(); "${command.joinToString(" ")} did not end within 3 minutes" }
        return Ran(p.exitValue(), Files.readString(out), Files.readString(err)).also { Files.delete(out); Files.delete(err) }
    }

    @Test
    fun `the archive installs into a prefix with one command and runs from any folder`(@TempDir tmp: Path) {
        assertThat(archive).`as`("the archive the build made (dist/target)").isRegularFile()
        val unpacked = Files.createDirectories(tmp.resolve("download"))
        assertThat(run(unpacked, "tar", "xzf", archive.toString()).exit).isZero()
        val prefix = tmp.resolve("prefix with space")
        val installed = run(unpacked, "stackbench-$version/install.sh", "--prefix", prefix.toString())
        assertThat(installed.exit).`as`(installed.toString()).isZero()
        assertThat(installed.out).contains("installed stackbench $version").contains("$prefix/bin/stackbench")
        val command = prefix.resolve("bin/stackbench")
        assertThat(command).isExecutable()
        val home = prefix.resolve("lib/stackbench")
        // the archive's folder is not needed once installed
        run(tmp, "rm", "-rf", unpacked.toString())

        val work = Files.createDirectories(tmp.resolve("my project"))
        val v = run(work, command.toString(), "--version")
        assertThat(v.exit).`as`(v.toString()).isZero()
        assertThat(v.out.trim()).matches("stackbench $version, commit [0-9a-f]{12}\\+? .*an install: .*")
        assertThat(v.err).doesNotContain("building")

        val plan = run(work, command.toString(), "plan", "quick")
        assertThat(plan.exit).`as`(plan.toString()).isZero()
        assertThat(plan.out).contains("suite quick:").contains("cells, estimated")
        assertThat(plan.err).doesNotContain("building")

        // a suite of the user's own, in the folder the command runs from
        Files.writeString(work.resolve("mine.yaml"), Files.readString(home.resolve("suites/quick.yaml")).replace("name: quick", "name: mine"))
        val mine = run(work, command.toString(), "plan", "mine.yaml")
        assertThat(mine.exit).`as`(mine.toString()).isZero()
        assertThat(mine.out).contains("suite mine:")

        val build = run(work, command.toString(), "build")
        assertThat(build.exit).isEqualTo(2)
        assertThat(build.err).contains("an install").contains("no sources")

        assertThat(home.resolve("pom.xml")).doesNotExist()
        assertThat(home.resolve("results")).doesNotExist()
    }
}
