package stackbench.runner.probe

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.ByteBuffer
import java.nio.ByteOrder
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit
import kotlin.random.Random

class PerfDataTest {

    @TempDir
    lateinit var dir: Path

    @Test
    fun `a file in either byte order reads as its counters, ticks in milliseconds, and a counter not published as unknown`() {
        for (order in listOf(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            val bytes = file(order, listOf(
                "sun.os.hrt.frequency" to 1_000_000L, "sun.ci.totalCompiles" to 1103L, "java.ci.totalTime" to 4_500_000L,
                "sun.gc.collector.0.invocations" to 3L, "sun.gc.collector.0.time" to 53_000L,
                "sun.gc.collector.1.invocations" to 1L, "sun.gc.collector.1.time" to 7_000L,
                "java.cls.loadedClasses" to 1508L, "sun.rt.createVmBeginTime" to 1_000L,
            ), strings = listOf("sun.gc.collector.0.name" to "G1 young collection pauses"))
            val c = PerfData.counters(PerfDataFile.parse(bytes), nowMs = 3_500L)
            assertThat(c.jitCompilations).isEqualTo(1103L)
            assertThat(c.jitTimeMs!!).isCloseTo(4_500.0, within(1e-9))
            assertThat(c.gcCollections).isEqualTo(4L)
            assertThat(c.gcTimeMs!!).isCloseTo(60.0, within(1e-9))
            assertThat(c.collectors.map { it.name }).containsExactly("G1 young collection pauses", null)
            assertThat(c.classesLoaded).isEqualTo(1508L)
            assertThat(c.uptimeMs).isEqualTo(2_500.0)
            assertThat(c.jitFailed).isNull()
            assertThat(c.safepoints).isNull()
            assertThat(c.gcCpuMs).isNull()
        }
    }

    @Test
    fun `without the tick frequency a time is unknown, not a count of ticks`() {
        val c = PerfData.counters(PerfDataFile.parse(file(ByteOrder.LITTLE_ENDIAN, listOf("java.ci.totalTime" to 5L))), 0)
        assertThat(c.jitTimeMs).isNull()
        assertThat(c.gcCollections).isNull()
    }

    @Test
    fun `garbage, a truncated file or one with entries outside it is refused with the reason, never read as numbers`() {
        val garbage = dir.resolve("garbage").also { Files.write(it, Random(7).nextBytes(32768)) }
        assertThat((PerfData.readFile(garbage) as PerfData.Reading.Unknown).why).contains("magic")
        assertThat(PerfData.readFile(dir.resolve("absent"))).isInstanceOf(PerfData.Reading.Unknown::class.java)

        val good = file(ByteOrder.LITTLE_ENDIAN, listOf("sun.ci.totalCompiles" to 1L, "java.cls.loadedClasses" to 2L))
        assertThatThrownBy { PerfDataFile.parse(good.copyOf(good.size - 5)) }.isInstanceOf(PerfDataFile.FormatException::class.java)
        val wildEntry = good.copyOf().also { ByteBuffer.wrap(it).order(ByteOrder.LITTLE_ENDIAN).putInt(32, 1 shl 20) }
        assertThatThrownBy { PerfDataFile.parse(wildEntry) }.hasMessageContaining("length")
        val otherVersion = good.copyOf().also { it[5] = 3 }
        assertThatThrownBy { PerfDataFile.parse(otherVersion) }.hasMessageContaining("version 3")
        val starting = good.copyOf().also { it[7] = 0 }
        assertThatThrownBy { PerfDataFile.parse(starting) }.hasMessageContaining("starting")
    }

    @Test
    fun `an entry the JVM is adding right now (zero length) ends the read with the entries before it`() {
        val good = file(ByteOrder.LITTLE_ENDIAN, listOf("sun.ci.totalCompiles" to 1L), reserve = 1)
        assertThat(PerfDataFile.parse(good).keys).containsExactly("sun.ci.totalCompiles")
    }

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

    // ---- a perf-data file after perfMemory.hpp and perfData.hpp, with 'J' counters (ticks) and 'B' strings

    private fun file(order: ByteOrder, longs: List<Pair<String, Long>>, strings: List<Pair<String, String>> = emptyList(), reserve: Int = 0): ByteArray {
        val buf = ByteBuffer.allocate(4096).order(order)
        var at = 32
        fun entry(name: String, type: Char, vectorLength: Int, units: Int, data: ByteArray) {
            val nameBytes = name.toByteArray() + 0
            val dataOffset = (20 + nameBytes.size + 7) / 8 * 8
            val length = (dataOffset + data.size + 7) / 8 * 8
            buf.putInt(at, length).putInt(at + 4, 20).putInt(at + 8, vectorLength)
            buf.put(at + 12, type.code.toByte()).put(at + 13, 0).put(at + 14, units.toByte()).put(at + 15, 1).putInt(at + 16, dataOffset)
            buf.put(at + 20, nameBytes)
            buf.put(at + dataOffset, data)
            at += length
        }
        for ((name, value) in longs) {
            val units = if (name.endsWith("ime") || name.endsWith("Time")) PerfDataFile.UNITS_TICKS else 4
            entry(name, 'J', 0, units, ByteBuffer.allocate(8).order(order).putLong(value).array())
        }
        for ((name, text) in strings) entry(name, 'B', text.length + 1, 5, text.toByteArray() + 0)
        val used = at + reserve * 64 // an entry counted in but not yet written: zeros
        buf.putInt(0, 0xcafec0c0.toInt().let { if (order == ByteOrder.BIG_ENDIAN) it else Integer.reverseBytes(it) })
        buf.put(4, if (order == ByteOrder.BIG_ENDIAN) 0 else 1).put(5, 2).put(6, 0).put(7, 1)
        buf.putInt(8, used).putInt(24, 32).putInt(28, longs.size + strings.size + reserve)
        return buf.array().copyOf(used)
    }
}
