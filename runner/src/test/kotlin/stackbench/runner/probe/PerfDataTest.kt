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
import kotlin.random.Random

/** The perf-data file format read from bytes; the reads of live JVMs are [PerfDataLiveIT]. */
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
