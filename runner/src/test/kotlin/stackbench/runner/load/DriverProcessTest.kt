package stackbench.runner.load

import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.Needs
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.isolation.Taskset
import stackbench.runner.load.LoadFixtures.request
import stackbench.runner.plan.LoadShape
import stackbench.runner.suite.LoadLength
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicReference

@Timeout(60)
class DriverProcessTest {
    private val processes = DriverProcess(grace = Duration.ofSeconds(1))

    @Test
    fun `runs a command, output to files, exit code, wall time and pid`(@TempDir dir: Path) {
        val started = AtomicReference<Process>()
        val run = processes.run(listOf("sh", "-c", "echo out; echo err >&2; exit 3"), dir, deadline = Duration.ofSeconds(10), onStarted = { started.set(it) })
        assertThat(run.exitCode).isEqualTo(3)
        assertThat(run.overran).isFalse()
        assertThat(run.pid).isEqualTo(started.get().pid())
        assertThat(run.wallSeconds).isBetween(0.0, 10.0)
        assertThat(Files.readString(dir.resolve("stdout.txt"))).isEqualTo("out\n")
        assertThat(Files.readString(dir.resolve("stderr.txt"))).isEqualTo("err\n")
    }

    @Test
    fun `a CPU list runs it under taskset`(@TempDir dir: Path) {
        Needs.that(listOf("/usr/bin/taskset", "/bin/taskset").any { Files.isExecutable(Path.of(it)) }, "taskset is not installed")
        val run = processes.run(listOf("grep", "Cpus_allowed_list", "/proc/self/status"), dir, listOf(0), Duration.ofSeconds(10))
        assertThat(run.command).startsWith("taskset", "-c", "0", "grep")
        assertThat(run.exitCode).isZero()
        assertThat(Files.readString(dir.resolve("stdout.txt")).trim()).matches("Cpus_allowed_list:\\s+0")
    }

    @Test
    fun `the taskset prefix lists the CPUs sorted, once each`() {
        assertThat(Taskset.pinned(listOf("wrk", "-v"), listOf(3, 1, 3))).containsExactly("taskset", "-c", "1,3", "wrk", "-v")
        assertThat(Taskset.pinned(listOf("wrk", "-v"), emptyList())).containsExactly("wrk", "-v")
    }

    @Test
    fun `a process that overruns its deadline is stopped, with SIGKILL if it ignores SIGTERM`(@TempDir dir: Path) {
        val t0 = System.nanoTime()
        val run = processes.run(listOf("sh", "-c", "trap '' TERM; sleep 30"), dir, deadline = Duration.ofMillis(500))
        val seconds = (System.nanoTime() - t0) / 1e9
        assertThat(run.overran).isTrue()
        assertThat(run.exitCode).isEqualTo(137) // 128 + SIGKILL
        assertThat(seconds).isLessThan(10.0)    // 0.5 s deadline + 1 s grace
    }

    @Test
    fun `SIGTERM is enough for a process that honours it`(@TempDir dir: Path) {
        val run = processes.run(listOf("sleep", "30"), dir, deadline = Duration.ofMillis(300))
        assertThat(run.overran).isTrue()
        assertThat(run.exitCode).isEqualTo(143) // 128 + SIGTERM
    }

    @Test
    fun `an interrupted caller stops the process and sees the interrupt`(@TempDir dir: Path) {
        val started = CountDownLatch(1)
        val process = AtomicReference<Process>()
        val caller = Thread.currentThread()
        val outcome = CompletableFuture<Throwable?>()
        val worker = Thread {
            try {
                processes.run(listOf("sleep", "30"), dir, deadline = Duration.ofSeconds(30), onStarted = { process.set(it); started.countDown() })
                outcome.complete(null)
            } catch (e: Throwable) {
                outcome.complete(e)
            }
        }
        worker.start()
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue()
        worker.interrupt()
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException::class.java)
        assertThat(process.get().waitFor(5, TimeUnit.SECONDS)).isTrue()
        assertThat(caller.isInterrupted).isFalse()
    }

    @Test
    fun `drive fails with the driver's output when it exits non-zero`(@TempDir dir: Path) {
        val fake = dir.resolve("fake-oha")
        Files.writeString(fake, "#!/bin/sh\necho 'error: the argument --bogus is wrong' >&2\nexit 2\n")
        fake.toFile().setExecutable(true)
        val out = dir.resolve("phase")
        assertThatThrownBy { processes.drive(OhaDriver(), request(out), fake) }
            .isInstanceOf(DriverProcessException::class.java)
            .hasMessageContaining("oha exited with status 2")
            .hasMessageContaining("the argument --bogus is wrong")
    }

    @Test
    fun `deadlines, a timed phase gets its length, a timeout, 30 s and a tenth, counted ones a generous bound`(@TempDir dir: Path) {
        val timed = request(dir, LoadShape.Closed(8), LoadLength.Timed(Duration.ofSeconds(60)), timeout = Duration.ofSeconds(2))
        assertThat(DriverProcess.deadline(timed)).isEqualTo(Duration.ofSeconds(98))
        val openCounted = request(dir, LoadShape.Open(100.0, 8), LoadLength.Counted(1000), timeout = Duration.ofSeconds(2))
        assertThat(DriverProcess.deadline(openCounted)).isEqualTo(Duration.ofSeconds(20 + 2 + 60))
        val closedCounted = request(dir, LoadShape.Closed(10), LoadLength.Counted(1000), timeout = Duration.ofSeconds(2))
        assertThat(DriverProcess.deadline(closedCounted)).isEqualTo(Duration.ofSeconds(230))
        val small = request(dir, LoadShape.Closed(10), LoadLength.Counted(10), timeout = Duration.ofSeconds(1))
        assertThat(DriverProcess.deadline(small)).isEqualTo(Duration.ofMinutes(2))
    }
}
