package stackbench.runner.e2e

import stackbench.runner.testing.Foreground
import stackbench.runner.testing.RunnerCommand
import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.TestJvm
import stackbench.runner.testing.Needs
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import stackbench.runner.isolation.CgroupLayout
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import kotlin.io.path.readText

/**
 * A real runner, signalled as a user (Ctrl-C) or the system (SIGKILL, the OOM killer) would: the promised
 * output after SIGINT, and nothing of the run left behind after SIGKILL.
 */
@Foreground
class RunnerSignalsIT {
    private val home = Path.of(System.getProperty("stackbench.home"))
    private val cpus = Runtime.getRuntime().availableProcessors()

    /** One tomcat cell under wrk (installed system-wide), its window long enough to be signalled in. */
    private fun suite(dir: Path): Path {
        val pinned = if (cpus >= 2) "cpuset: [${cpus - 1}]," else ""
        return Files.writeString(dir.resolve("signals.yaml"), """
            name: signals
            apps: [{name: tc, stack: tomcat, jvm-args: [${TestJvm.C1_ONLY}]}]
            profile: {cpus: 1, $pinned memory: 512MiB, start-cpus: all}
            endpoints: [{kind: cpu, strategies: [direct], limit: 1000}]
            load: {driver: wrk, connections: 4, warmup: 1s, prime: false, duration: 60s, timeout: 5s}
            repetitions: 1
        """.trimIndent())
    }

    private fun start(dir: Path, out: Path, console: Path): Process {
        Needs.that(Files.isExecutable(Path.of("/usr/bin/wrk")) || Files.isExecutable(Path.of("/usr/local/bin/wrk")), "wrk is not installed")
        return ProcessBuilder(RunnerCommand.of("run", suite(dir).toString(), "--out", out.toString(), "--no-install", "--fast-start"))
            .redirectErrorStream(true).redirectOutput(console.toFile()).start()
    }

    private fun awaitPhase(console: Path, phase: String) {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
        while (System.nanoTime() < deadline && !console.readText().contains(" $phase ")) Thread.sleep(100)
        assertThat(console.readText()).`as`("the runner reached $phase").contains(" $phase ")
    }

    private fun signal(process: Process, name: String) {
        assertThat(ProcessBuilder("kill", "-s", name, process.pid().toString()).start().waitFor()).isZero()
    }

    /** Processes of the run: every argument naming its folder (-Dstackbench.run=DIR, the app's GC log, wrk's script). */
    private fun processesOf(out: Path): List<String> = ProcessHandle.allProcesses().filter { p ->
        p.info().arguments().map { args -> args.any { it.contains(out.toString()) } }.orElse(false)
    }.map { "${it.pid()} ${it.info().commandLine().orElse("")}" }.toList()

    /** The runner's cgroups (`sb<pid>-*`) under the lab's root in every controller this machine mounts. */
    private fun groupsOf(runner: Long): List<Path> {
        val layout = CgroupLayout.parse(Path.of("/proc/mounts").readText(), Path.of("/proc/self/cgroup").readText()) ?: return emptyList()
        return layout.bases.values.map { it.resolve("stackbench") }.filter { Files.isDirectory(it) }
            .flatMap { root -> Files.list(root).use { s -> s.filter { Files.isDirectory(it) && it.fileName.toString().startsWith("sb$runner-") }.toList() } }
    }

    @Test
    fun `a runner killed with SIGKILL while its app runs leaves no process and no cgroup after 5 s`(@TempDir dir: Path) {
        val out = dir.resolve("results")
        val console = dir.resolve("console.txt")
        val runner = start(dir, out, console)
        try {
            awaitPhase(console, "measuring")
            Thread.sleep(1000)
            val pid = runner.pid()
            assertThat(processesOf(out)).`as`("the app and the load generator run").hasSizeGreaterThanOrEqualTo(2)
            val groups = groupsOf(pid)
            runner.destroyForcibly() // SIGKILL: no hook, no finally
            assertThat(runner.waitFor(5, TimeUnit.SECONDS)).isTrue()
            Thread.sleep(5000)
            assertThat(processesOf(out)).`as`("processes of the run 5 s after its runner was killed").isEmpty()
            assertThat(groupsOf(pid)).`as`("cgroups of the run 5 s after its runner was killed (there were $groups)").isEmpty()
        } finally {
            runner.destroyForcibly()
        }
    }

    /**
     * Whether this JVM was started with SIGINT ignored, as a background job of a non-interactive shell is (`cmd &` in a
     * script, `nohup`): the runner inherits the ignored signal, the JVM honours it, and Ctrl-C cannot reach the run.
     */
    private fun sigintIgnored(): Boolean {
        val mask = Path.of("/proc/self/status").takeIf { Files.isReadable(it) }?.readText()?.lines()
            ?.firstOrNull { it.startsWith("SigIgn:") }?.substringAfter(':')?.trim()?.toLongOrNull(16) ?: return false
        return mask and (1L shl (2 - 1)) != 0L
    }

    @ParameterizedTest(name = "while {0}")
    @ValueSource(strings = ["starting", "measuring"])
    fun `SIGINT prints the summary and the resume hint, every time`(phase: String, @TempDir dir: Path) {
        assumeTrue(!sigintIgnored(), "SIGINT is ignored by this test's JVM (started as a background job of a non-interactive shell?): " +
            "the runner would inherit it; run the tests in the foreground")
        val out = dir.resolve("results")
        val console = dir.resolve("console.txt")
        val runner = start(dir, out, console)
        try {
            awaitPhase(console, phase)
            Thread.sleep(500)
            signal(runner, "INT")
            assertThat(runner.waitFor(90, TimeUnit.SECONDS)).`as`("the runner stopped").isTrue()
            val text = console.readText()
            assertThat(runner.exitValue()).`as`(text).isEqualTo(130)
            assertThat(text).`as`("the summary table").containsPattern("#\\s+app\\s+endpoint\\s+load\\s+req/s")
            assertThat(text).contains("results: $out")
            assertThat(text).contains("the run was interrupted; finish it with: ./stackbench run --resume $out")
            val record = ResultsStore.read(out)
            assertThat(record.run.status).isEqualTo(RunStatus.INTERRUPTED)
            // its one sitting, where it began, on this host: a resume would add the next
            assertThat(record.run.sittings.map { it.startedAt to it.hostname }).containsExactly(record.run.startedAt to record.environment.hostname)
            Thread.sleep(1000)
            assertThat(processesOf(out)).isEmpty()
            assertThat(groupsOf(runner.pid())).isEmpty()
        } finally {
            runner.destroyForcibly()
        }
    }
}
