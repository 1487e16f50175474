package stackbench.runner.profiler

import jdk.jfr.Recording
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.results.Flags
import stackbench.runner.results.Json
import stackbench.runner.results.ProbeRecord
import java.lang.foreign.Arena
import java.lang.foreign.FunctionDescriptor
import java.lang.foreign.Linker
import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout
import java.lang.invoke.MethodHandles
import java.lang.invoke.MethodType
import java.nio.file.Path
import java.time.Instant

/**
 * A real pin, recorded in this JVM: virtual threads that sleep inside a comparator the C library's `qsort` calls back
 * (a native frame on the stack pins the carrier, on JDK 25 as before JEP 491), recorded by JFR as the probe records an
 * app, then read by [PinnedEvents]: the count, the reason the JDK gives, and the frame that pinned.
 */
class PinnedEventsTest {
    @Test
    fun `pins under a native frame are counted, timed and traced to the frame that pinned, and only from the window on`(@TempDir dir: Path) {
        val file = dir.resolve("pinned.jfr")
        val windowFrom: Instant
        Recording().use { r ->
            r.enable("jdk.VirtualThreadPinned").withThreshold(java.time.Duration.ofMillis(1)).withStackTrace()
            r.start()
            pinned(2) // before the window: not counted
            windowFrom = Instant.now()
            pinned(3)
            r.stop()
            r.dump(file)
        }
        val pins = PinnedEvents.read(file, windowFrom)
        assertThat(pins.events).isEqualTo(3)
        assertThat(pins.maxMs).isGreaterThanOrEqualTo(SLEEP_MS.toDouble())
        assertThat(pins.totalMs).isGreaterThanOrEqualTo(3.0 * SLEEP_MS)
        assertThat(pins.reasons.keys).containsExactly("Native or VM frame on stack")
        assertThat(pins.frames.first()).isEqualTo(PinnedEvents.Count("${Sleepy::class.java.name}.compare", 3))
        assertThat(PinnedEvents.read(file, Instant.EPOCH).events).isEqualTo(5)

        val flag = Flags.pinned(ProbeRecord(figures = mapOf("events" to 3.0, "totalMs" to pins.totalMs, "maxMs" to pins.maxMs), details = Json.mapper.valueToTree(pins)))!!
        assertThat(flag.code).isEqualTo("pinned")
        assertThat(flag.message).contains("pinned their carrier 3 times", "most at ${Sleepy::class.java.name}.compare", "(Native or VM frame on stack)")
        assertThat(Flags.pinned(ProbeRecord(figures = mapOf("events" to 0.0)))).isNull()
    }

    /** [n] virtual threads, one after another, each sorting two ints with a comparator that sleeps. */
    private fun pinned(n: Int) {
        repeat(n) {
            Thread.ofVirtual().start {
                Arena.ofConfined().use { arena ->
                    val ints = arena.allocateFrom(ValueLayout.JAVA_INT, 2, 1)
                    QSORT.invokeExact(ints, 2L, 4L, COMPARATOR) as Unit
                }
            }.join()
        }
    }

    object Sleepy {
        @JvmStatic
        fun compare(a: MemorySegment, b: MemorySegment): Int {
            Thread.sleep(SLEEP_MS)
            return a.get(ValueLayout.JAVA_INT, 0).compareTo(b.get(ValueLayout.JAVA_INT, 0))
        }
    }

    private companion object {
        const val SLEEP_MS = 20L
        val linker: Linker = Linker.nativeLinker()
        val QSORT = linker.downcallHandle(linker.defaultLookup().find("qsort").orElseThrow(),
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS))
        val COMPARATOR: MemorySegment = run {
            val int = ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT)
            val target = MethodHandles.lookup().findStatic(Sleepy::class.java, "compare",
                MethodType.methodType(Int::class.javaPrimitiveType, MemorySegment::class.java, MemorySegment::class.java))
            linker.upcallStub(target, FunctionDescriptor.of(ValueLayout.JAVA_INT, int, int), Arena.global())
        }
    }
}
