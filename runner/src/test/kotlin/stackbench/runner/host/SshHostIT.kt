package stackbench.runner.host

import stackbench.runner.testing.Background
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import org.junit.jupiter.api.parallel.ResourceAccessMode
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/**
 * [SshHost] against an sshd in a network namespace of this machine ([NamespaceMachines]): the "remote" shares this
 * machine's filesystem and process table, so the test can see what is left there directly.
 */
@Background
@ResourceLock(SharedMachine.LANE_1)
@ResourceLock(SharedMachine.NAMESPACES, mode = ResourceAccessMode.READ_WRITE)
class SshHostIT {
    @TempDir lateinit var dir: Path
    private lateinit var machines: NamespaceMachines
    private val registry = ProcessRegistry()
    private val tag = "sbit${ProcessHandle.current().pid()}"

    @BeforeEach
    fun start() {
        Needs.that(NamespaceMachines.available(), "needs root and ip netns")
        Needs.that(Files.isExecutable(Path.of("/usr/sbin/sshd")), "needs openssh-server")
        machines = NamespaceMachines(listOf("load1"), dir)
    }

    @AfterEach
    fun stop() {
        if (::machines.isInitialized) machines.close()
        assertThat(NamespaceMachines.leftoversOf("sbt${ProcessHandle.current().pid()}")).isEmpty()
    }

    private fun open() = SshHost.open(machines.ssh("load1"), registry, tag, machines.knownHosts)

    /** Processes on this machine whose command line holds [marker]. */
    private fun running(marker: String): List<Long> = ProcessHandle.allProcesses()
        .filter { p -> p.info().arguments().map { args -> args.any { it.contains(marker) } }.orElse(false) }
        .map { it.pid() }.toList().filter { it != ProcessHandle.current().pid() }

    /**
     * Processes with [marker] still there once [grace] has passed (a process killed a moment ago may not yet be
     * reaped; one still there after it was left behind), each described for the failure: pid, state, parent, command.
     */
    private fun leftAfter(marker: String, grace: Duration): List<String> {
        val deadline = System.nanoTime() + grace.toNanos()
        while (running(marker).isNotEmpty() && System.nanoTime() < deadline) Thread.sleep(50)
        return running(marker).map { pid ->
            val stat = runCatching { Files.readString(Path.of("/proc/$pid/stat")).substringAfterLast(") ").split(" ") }.getOrDefault(emptyList())
            val args = ProcessHandle.of(pid).flatMap { it.info().commandLine() }.orElse("?")
            "pid $pid state ${stat.getOrNull(0)} parent ${stat.getOrNull(1)}: $args"
        }
    }

    private fun awaitLine(log: Path, text: String) {
        val deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos()
        while (!runCatching { Files.readString(log) }.getOrDefault("").contains(text)) {
            check(System.nanoTime() < deadline) { "no '$text' in $log: ${runCatching { Files.readString(log) }.getOrDefault("")}" }
            Thread.sleep(50)
        }
    }

    @Test
    fun `copy a file, run a bounded command with its output streamed back, stop it, run a short command, close - nothing left`() {
        val host = open()
        val remoteDir = Path.of(host.dir)
        assertThat(Files.isDirectory(remoteDir)).isTrue()
        val script = dir.resolve("ticks.sh").also { Files.writeString(it, "echo started \"\$1\"; i=0; while [ \$i -lt 600 ]; do echo tick \$i; i=\$((i+1)); sleep 0.1; done\n") }
        val staged = host.stage(script)
        assertThat(staged).isEqualTo("${host.dir}/ticks.sh")
        assertThat(Files.readString(Path.of(staged))).isEqualTo(Files.readString(script))

        val marker = "marker-${System.nanoTime()}"
        val log = dir.resolve("logs/role.log")
        val child = host.launch(LaunchSpec("driver", listOf("sh", staged, marker), log))
        awaitLine(log, "tick 3")
        assertThat(Files.readAllLines(log).first()).isEqualTo("started $marker")
        val pid = host.remotePid(child)!!
        assertThat(running(marker)).contains(pid)
        // a short command's output: the remote process's CPU time, as the lab reads it for a window
        val (status, stat) = host.exec(listOf("cat", "/proc/$pid/stat"))
        assertThat(status).isZero()
        assertThat(stat).startsWith("$pid (sh) ")

        child.stop(Duration.ofSeconds(2))
        assertThat(child.isAlive()).isFalse()
        assertThat(leftAfter(marker, Duration.ofSeconds(3))).`as`("processes of the stopped role").isEmpty()
        assertThat(Files.readString(log)).doesNotContain("tick 599")

        host.close()
        assertThat(Files.exists(remoteDir)).isFalse()
        assertThat(registry.alive()).isEmpty()
    }

    @Test
    fun `a role ends on its own with its status, and one whose ssh connection drops is ended by the wrapper`() {
        val host = open()
        try {
            val done = host.launch(LaunchSpec("short", listOf("sh", "-c", "echo out; echo err >&2; exit 3"), dir.resolve("short.log"), stderr = dir.resolve("short.err")))
            assertThat(done.process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue()
            assertThat(done.process.exitValue()).isEqualTo(3)
            assertThat(Files.readString(dir.resolve("short.log"))).isEqualTo("out\n")
            assertThat(Files.readString(dir.resolve("short.err"))).isEqualTo("err\n")

            val marker = "dropped-${System.nanoTime()}"
            val log = dir.resolve("long.log")
            val child = host.launch(LaunchSpec("long", listOf("sh", "-c", "echo up; sleep 300; echo $marker"), log))
            awaitLine(log, "up")
            assertThat(running(marker)).isNotEmpty()
            child.process.destroyForcibly() // the runner's ssh gone, as when the runner is killed (parent-death signal)
            val deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos()
            while (running(marker).isNotEmpty() && System.nanoTime() < deadline) Thread.sleep(100)
            assertThat(running(marker)).`as`("the remote process after its connection dropped").isEmpty()
        } finally {
            host.close()
        }
        assertThat(Files.exists(Path.of(host.dir))).isFalse()
    }

    @Test
    fun `a host that refuses the key is a clear error`() {
        val wrong = dir.resolve("other_key")
        ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", wrong.toString()).start().waitFor()
        val spec = machines.ssh("load1").copy(key = wrong.toString())
        val error = runCatching { SshHost.open(spec, registry, tag, machines.knownHosts) }.exceptionOrNull()
        assertThat(error).isInstanceOf(IllegalStateException::class.java)
        assertThat(error!!.message).startsWith("cannot reach ssh host load1 (root@${machines.address("load1")}:22): ")
            .contains("Permission denied").endsWith(" — the lab logs in with a key only (BatchMode): check the key, the user and that sshd runs there")
    }
}
