package stackbench.runner.probe

import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * [PerfData] against live JVMs that this test starts (on this JDK and on 17), cross-checked with jcmd: real
 * processes, so in the integration lane; the file format's own cases are [PerfDataTest]'s.
 */
@Background
@ResourceLock(SharedMachine.LANE_2)
class PerfDataLiveIT {

    @TempDir
    lateinit var dir: Path

    @Test
    fun `a live JVM's counters grow while it compiles and agree with jcmd's PerfCounter print around the read`() {
        val startedMs = System.currentTimeMillis()
        withChild { pid ->
            val first = until("the child's first compilations and collection") {
                PerfData.counters(pid)?.takeIf { (it.jitCompilations ?: 0) > 0 && (it.gcCollections ?: 0) > 0 }
            }
            assertThat(first.classesLoaded).isGreaterThan(500)
            assertThat(first.safepoints).isNotNull()
            assertThat(first.jitTimeMs).isNotNull()
            Thread.sleep(100) // the uptime is in wall-clock milliseconds
            val second = until("more compilations") {
                PerfData.counters(pid)?.takeIf { it.jitCompilations!! > first.jitCompilations!! }
            }
            assertThat(second.uptimeMs!!).isGreaterThan(first.uptimeMs!!)
            assertThat(second.jitTimeMs!!).isGreaterThanOrEqualTo(first.jitTimeMs!!)
            assertThat(second.classesLoaded!!).isGreaterThanOrEqualTo(first.classesLoaded!!)

            // monotone counters: jcmd before the read <= the read <= jcmd after it
            val before = jcmd(pid)
            val read = PerfData.counters(pid)!!
            val after = jcmd(pid)
            // the JVM began after this test started it: an uptime in another unit would not fit
            assertThat(read.uptimeMs!!).isPositive().isLessThanOrEqualTo((System.currentTimeMillis() - startedMs).toDouble())
            assertThat(PerfData.file(pid).toString()).endsWith("/hsperfdata_${System.getProperty("user.name")}/$pid")
            val ticksPerMs = after.getValue("sun.os.hrt.frequency") / 1000.0
            val pairs = listOf(
                Triple("sun.ci.totalCompiles", read.jitCompilations!!.toDouble(), 1.0),
                Triple("java.cls.loadedClasses", read.classesLoaded!!.toDouble(), 1.0),
                Triple("sun.gc.collector.0.invocations", read.collectors[0].invocations!!.toDouble(), 1.0),
                Triple("sun.rt.safepoints", read.safepoints!!.toDouble(), 1.0),
                Triple("java.ci.totalTime", read.jitTimeMs!!, ticksPerMs),
                Triple("sun.gc.collector.0.time", read.collectors[0].timeMs!!, ticksPerMs),
            )
            for ((name, ours, per) in pairs) {
                println("perfdata cross-check $name: jcmd before ${before.getValue(name) / per}, read $ours, jcmd after ${after.getValue(name) / per}")
                assertThat(ours).describedAs(name).isBetween(before.getValue(name) / per - 1e-6, after.getValue(name) / per + 1e-6)
            }
            println("perfdata read: $read")
        }
    }

    @Test
    fun `a live JVM names its runtime - the version, vendor, VM, collectors and flags it reports - on this JDK and on 17`() {
        withChild { pid ->
            val r = until("the child's runtime") { PerfData.file(pid)?.let { stackbench.runner.sut.JvmRuntime.record(PerfDataFile.parse(Files.readAllBytes(it)), null) }?.takeIf { it.vendor != null } }
            println("runtime: $r")
            assertThat(r.fromJvm).isTrue()
            assertThat(r.requested).`as`("no jdk: asked for").isNull()
            assertThat(r.version).isEqualTo(System.getProperty("java.vm.version"))
            assertThat(r.vendor).isEqualTo(System.getProperty("java.vm.vendor"))
            assertThat(r.feature).isEqualTo(Runtime.version().feature())
            assertThat(r.vm).startsWith(System.getProperty("java.vm.name"))
            assertThat(r.home).isEqualTo(System.getProperty("java.home"))
            assertThat(r.vmArgs).contains("-XX:+UseG1GC", "-Xmx64m")
            assertThat(r.collectors).isNotEmpty()
            assertThat(r.gc).isNotBlank()
        }
        val jdk17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java")
        stackbench.runner.testing.Needs.that(Files.isExecutable(jdk17), "no JDK 17 at $jdk17")
        withChild(java = jdk17.toString()) { pid ->
            val r = until("the JDK 17 child's runtime") { PerfData.file(pid)?.let { stackbench.runner.sut.JvmRuntime.record(PerfDataFile.parse(Files.readAllBytes(it)), null) }?.takeIf { it.vendor != null } }
            println("runtime on 17: $r")
            assertThat(r.feature).isEqualTo(17)
            assertThat(r.version).startsWith("17.")
            assertThat(r.home).isEqualTo("/usr/lib/jvm/java-17-openjdk-amd64")
        }
    }

    @Test
    fun `a JVM without perf data reads as unknown`() {
        withChild("-XX:-UsePerfData") { pid ->
            assertThat(PerfData.file(pid)).isNull()
            assertThat((PerfData.read(pid) as PerfData.Reading.Unknown).why).contains("no perf-data file")
            assertThat(PerfData.counters(pid)).isNull()
        }
    }

    // ---- a child JVM that compiles, allocates and collects

    private val java: String = ProcessHandle.current().info().command().get()

    private fun withChild(vararg options: String, java: String = this.java, body: (Long) -> Unit) {
        val source = dir.resolve("Churn.java")
        Files.writeString(source, """
            public class Churn {
                public static void main(String[] args) throws Exception {
                    System.out.println("up");
                    System.out.flush();
                    long sum = 0;
                    java.util.List<byte[]> kept = new java.util.ArrayList<>();
                    while (true) {
                        for (int i = 0; i < 200_000; i++) {
                            sum += Integer.toString(i).hashCode();
                            kept.add(new byte[64]);
                            if (kept.size() > 10_000) kept.clear();
                        }
                        if (sum == 42) System.out.println(sum);
                        Thread.sleep(5);
                    }
                }
            }
        """.trimIndent())
        val process = ProcessBuilder(listOf(java, "-Xmx64m", "-XX:+UseG1GC", *options, source.toString()))
            .redirectErrorStream(true).start()
        try {
            assertThat(process.inputReader().readLine()).isEqualTo("up")
            body(process.pid())
        } finally {
            process.destroyForcibly()
            process.waitFor(10, TimeUnit.SECONDS)
        }
    }

    private fun <T : Any> until(what: String, read: () -> T?): T {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
        while (System.nanoTime() < deadline) {
            read()?.let { return it }
            Thread.sleep(50)
        }
        throw AssertionError("waited 30 s for $what")
    }

    /** `jcmd <pid> PerfCounter.print`: the numeric counters by name. */
    private fun jcmd(pid: Long): Map<String, Double> {
        val jcmd = Path.of(java).resolveSibling("jcmd").toString()
        val process = ProcessBuilder(jcmd, pid.toString(), "PerfCounter.print").redirectErrorStream(true).start()
        val lines = process.inputReader().readLines()
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue()
        return lines.mapNotNull { line ->
            val eq = line.indexOf('=')
            if (eq < 0) null else line.substring(eq + 1).toDoubleOrNull()?.let { line.substring(0, eq) to it }
        }.toMap()
    }
}
