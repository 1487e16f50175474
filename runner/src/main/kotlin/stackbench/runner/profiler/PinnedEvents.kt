package stackbench.runner.profiler

import jdk.jfr.consumer.RecordedEvent
import jdk.jfr.consumer.RecordingFile
import java.nio.file.Path
import java.time.Instant

/**
 * The `jdk.VirtualThreadPinned` events of a recording that began at or after [from]: how many, their time, why the
 * JDK says they pinned, and the frame that pinned (the first frame of each stack, from the top, outside the JDK's own
 * `java.`, `jdk.` and `sun.` packages), read with the JDK's own reader.
 */
data class PinnedEvents(
    val events: Int,
    val totalMs: Double,
    val maxMs: Double,
    val reasons: Map<String, Int>,
    /** The frames that pinned, most first (at most [TOP]). */
    val frames: List<Count>,
) {
    data class Count(val frame: String, val events: Int)

    companion object {
        const val TOP = 10
        private val JDK = listOf("java.", "jdk.", "sun.", "com.sun.")

        fun read(file: Path, from: Instant): PinnedEvents {
            val events = RecordingFile.readAllEvents(file).filter { it.eventType.name == "jdk.VirtualThreadPinned" && !it.startTime.isBefore(from) }
            return of(events)
        }

        fun of(events: List<RecordedEvent>): PinnedEvents {
            val ms = events.map { it.duration.toNanos() / 1e6 }
            val reasons = events.groupingBy { runCatching { it.getString("pinnedReason") }.getOrNull() ?: "(not given)" }.eachCount()
            val frames = events.groupingBy { e -> pinningFrame(e) }.eachCount().entries
                .sortedWith(compareByDescending<Map.Entry<String, Int>> { it.value }.thenBy { it.key }).take(TOP).map { Count(it.key, it.value) }
            return PinnedEvents(events.size, ms.sum(), ms.maxOrNull() ?: 0.0, reasons, frames)
        }

        private fun pinningFrame(e: RecordedEvent): String {
            val frames = e.stackTrace?.frames.orEmpty()
            val name = { f: jdk.jfr.consumer.RecordedFrame -> "${f.method.type.name}.${f.method.name}" }
            return frames.firstOrNull { f -> JDK.none { f.method.type.name.startsWith(it) } }?.let(name)
                ?: frames.firstOrNull()?.let(name) ?: "(no stack)"
        }
    }
}
