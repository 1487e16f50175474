package stackbench.runner.probe

import java.nio.ByteBuffer
import java.nio.ByteOrder

/**
 * A parser of HotSpot's performance-data file (hsperfdata, what `jstat` and `jcmd PerfCounter.print` read), after the
 * layout in HotSpot's perfMemory.hpp (the prologue) and perfData.hpp (the entries), version 2 since JDK 1.4.2.
 *
 * Why a parser and not the JDK's own reader (`sun.jvmstat.monitor` in module `jdk.internal.jvmstat`): that reader is
 * internal and not exported. It works with `--add-exports jdk.internal.jvmstat/sun.jvmstat.monitor=ALL-UNNAMED`, but
 * the Kotlin compiler refuses the package ("Symbol is declared in module 'jdk.internal.jvmstat' which does not export
 * package") and has no such flag, so every call would go through reflection; the flag would have to stay in step in
 * three places (the shaded jar's manifest, surefire's and failsafe's argLine); the module is absent from a jlink'd
 * runtime; and its API (MonitoredHost, VmIdentifier, polling threads) is made for attaching tools. The file layout is
 * documented, at version 2.0 since JDK 1.4.2, and takes some eighty lines; a layout this parser does not know is
 * refused, never guessed.
 *
 * The file is a memory map the live JVM writes without locks: the caller reads it with one read, so a counter may be
 * a moment older than the next one, and an entry the JVM is still adding is past `used` and not read.
 */
object PerfDataFile {
    private const val MAGIC = 0xcafec0c0.toInt()
    private const val PROLOGUE_SIZE = 32
    private const val ENTRY_HEADER_SIZE = 20

    /** perfData.hpp's PerfData::Units; only ticks need converting. */
    const val UNITS_TICKS = 3

    /** One counter: a number ('J', a jlong) or a string (a byte vector, NUL-terminated), with its units. */
    data class Counter(val value: Long?, val text: String?, val units: Int)

    class FormatException(message: String) : IllegalArgumentException(message)

    /** Every counter in [bytes], by name; throws [FormatException] for anything that is not a readable version-2 file. */
    fun parse(bytes: ByteArray): Map<String, Counter> {
        if (bytes.size < PROLOGUE_SIZE) throw FormatException("${bytes.size} bytes, shorter than the 32-byte prologue")
        val buf = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN)
        // the magic is written in big-endian order whatever the buffer's byte order
        val magic = buf.getInt(0)
        if (magic != MAGIC) throw FormatException("magic 0x%08x, not 0xcafec0c0".format(magic))
        buf.order(if (bytes[4].toInt() == 0) ByteOrder.BIG_ENDIAN else ByteOrder.LITTLE_ENDIAN)
        val major = bytes[5].toInt()
        val minor = bytes[6].toInt()
        if (major != 2) throw FormatException("version $major.$minor, only 2.x is known")
        // 0 until the JVM has created its counters
        if (bytes[7].toInt() == 0) throw FormatException("not yet accessible (the JVM is starting)")
        val used = buf.getInt(8)
        if (used < PROLOGUE_SIZE || used > bytes.size) throw FormatException("$used bytes used in a file of ${bytes.size}")
        val entryOffset = buf.getInt(24)
        val numEntries = buf.getInt(28)
        if (entryOffset < PROLOGUE_SIZE || entryOffset > used || numEntries < 0)
            throw FormatException("entries at $entryOffset, $numEntries of them, in $used bytes used")

        val counters = LinkedHashMap<String, Counter>()
        var at = entryOffset
        repeat(numEntries) {
            if (at + ENTRY_HEADER_SIZE > used) return counters
            val length = buf.getInt(at)
            // HotSpot counts an entry in before it writes it: a zero length is one being added right now
            if (length == 0) return counters
            if (length < ENTRY_HEADER_SIZE || at + length > used) throw FormatException("entry at $at has length $length")
            val name = cString(bytes, at + buf.getInt(at + 4), at + length)
                ?: throw FormatException("entry at $at has its name outside it")
            val vectorLength = buf.getInt(at + 8)
            val type = bytes[at + 12].toInt().toChar()
            val units = bytes[at + 14].toInt()
            val data = at + buf.getInt(at + 16)
            when {
                type == 'J' && vectorLength == 0 && data >= at && data + 8 <= at + length ->
                    counters[name] = Counter(buf.getLong(data), null, units)
                type == 'B' && vectorLength > 0 && data >= at && data + vectorLength <= at + length ->
                    counters[name] = Counter(null, cString(bytes, data, data + vectorLength) ?: "", units)
                // other types are not published by HotSpot today; skip rather than misread them
            }
            at += length
        }
        return counters
    }

    private fun cString(bytes: ByteArray, from: Int, limit: Int): String? {
        if (from < 0 || from >= limit) return null
        var end = from
        while (end < limit && bytes[end] != 0.toByte()) end++
        return String(bytes, from, end - from, Charsets.UTF_8)
    }
}
