package stackbench.runner.host

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** The watchdog's script, run as the runner starts it; the runner's death is its standard input closing. */
class WatchdogTest {
    private fun watchdog(dir: Path, roots: List<Path>): Process {
        val builder = ProcessBuilder(Watchdog.command(roots)).redirectErrorStream(true).redirectOutput(dir.resolve("watchdog.log").toFile())
        builder.environment()[Watchdog.MARK] = "-Dstackbench.run=$dir"
        builder.environment()[Watchdog.MARK_PREFIX] = "-Xlog:gc:file=$dir/"
        builder.environment()[Watchdog.PREFIX] = "sb4242"
        return builder.start()
    }

    /** A process whose command line holds [arg] as one argument, as the app and downstream JVMs do. */
    private fun marked(arg: String): Process = ProcessBuilder("/bin/sh", "-c", "sleep 60", arg).start()

    @Test
    fun `while the runner lives it waits, and kills nothing`(@TempDir dir: Path) {
        val app = marked("-Dstackbench.run=$dir")
        val dog = watchdog(dir, emptyList())
        try {
            assertThat(dog.waitFor(500, TimeUnit.MILLISECONDS)).isFalse()
            assertThat(app.isAlive).isTrue()
        } finally {
            app.destroyForcibly(); dog.destroyForcibly()
        }
    }

    @Test
    fun `when the runner is gone it kills the run's marked processes and removes its groups, and only those`(@TempDir dir: Path) {
        val other = dir.resolve("other-run")
        val downstream = marked("-Dstackbench.run=$dir")
        val app = marked("-Xlog:gc:file=$dir/cells/001/gc.log:utctime")
        val stranger = marked("-Dstackbench.run=$other")
        val roots = listOf(dir.resolve("cpu/stackbench"), dir.resolve("memory/stackbench"))
        val groups = roots.flatMap { listOf(it.resolve("sb4242-1-app"), it.resolve("sb4242-1-driver")) }
        groups.forEach { Files.createDirectories(it) }
        val kept = Files.createDirectories(roots[0].resolve("sb777-1-app")) // another runner's
        val dog = watchdog(dir, roots)
        try {
            dog.outputStream.close() // the runner died: the kernel closed its end of the pipe
            assertThat(dog.waitFor(5, TimeUnit.SECONDS)).`as`("the watchdog finished").isTrue()
            assertThat(downstream.waitFor(2, TimeUnit.SECONDS)).isTrue()
            assertThat(app.waitFor(2, TimeUnit.SECONDS)).isTrue()
            assertThat(stranger.isAlive).isTrue()
            assertThat(groups).allSatisfy { assertThat(it).doesNotExist() }
            assertThat(kept).isDirectory()
        } finally {
            listOf(downstream, app, stranger, dog).forEach { it.destroyForcibly() }
        }
    }

    @Test
    fun `when the runner is gone it kills what runs from the runner's database folder, then removes the folder`(@TempDir dir: Path) {
        val folder = Files.createDirectories(dir.resolve("stackbench-db-4242"))
        Files.createDirectories(folder.resolve("cluster-1/data")).also { Files.writeString(it.resolve("PG_VERSION"), "15") }
        val other = Files.createDirectories(dir.resolve("stackbench-db-42"))
        val server = marked("${folder}/cluster-1/data")
        val stranger = marked("$other/cluster-1/data")
        val builder = ProcessBuilder(Watchdog.command(emptyList())).redirectErrorStream(true).redirectOutput(dir.resolve("watchdog.log").toFile())
        builder.environment()[Watchdog.PREFIX] = "sb4242"
        builder.environment()[Watchdog.DIRS] = folder.toString()
        val dog = builder.start()
        try {
            dog.outputStream.close()
            assertThat(dog.waitFor(5, TimeUnit.SECONDS)).`as`("the watchdog finished").isTrue()
            assertThat(server.waitFor(2, TimeUnit.SECONDS)).`as`("the server, its data folder under the runner's").isTrue()
            assertThat(stranger.isAlive).`as`("another runner's server (a folder whose name starts the same)").isTrue()
            assertThat(folder).doesNotExist()
            assertThat(other).isDirectory()
        } finally {
            listOf(server, stranger, dog).forEach { it.destroyForcibly() }
        }
    }

    @Test
    fun `Ctrl-C to the process group does not end it`(@TempDir dir: Path) {
        val dog = watchdog(dir, emptyList())
        try {
            Thread.sleep(300) // until the shell has set its traps
            ProcessBuilder("kill", "-INT", dog.pid().toString()).start().waitFor()
            ProcessBuilder("kill", "-HUP", dog.pid().toString()).start().waitFor()
            assertThat(dog.waitFor(500, TimeUnit.MILLISECONDS)).isFalse()
        } finally {
            dog.destroyForcibly()
        }
    }

    @Test
    fun `a child command is wrapped so that the kernel kills it with its parent`() {
        assertThat(ParentDeath.wrap(listOf("java", "-jar", "app.jar"), "/usr/bin/setpriv"))
            .containsExactly("/usr/bin/setpriv", "--pdeathsig", "KILL", "--", "java", "-jar", "app.jar")
        assertThat(ParentDeath.wrap(listOf("java"), null)).containsExactly("java")
    }
}
