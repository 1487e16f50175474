package stackbench.apps.endpoints.io

import jdk.jfr.Recording
import jdk.jfr.consumer.RecordingFile
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.apps.endpoints.config.StackbenchProperties
import java.nio.file.Path

/**
 * The pinning mode's sleep, recorded by JFR in this JVM as the lab's pinning probe records an app: on a virtual thread
 * every sleep pins its carrier for the sleep's length, under [ClassInitSleep]'s class initializer, and each call
 * initializes a class of its own (a second call pins again); on a platform thread nothing is recorded.
 */
class PinningTruthTest {
    @Test
    fun `off by default`() {
        assertThat(PinningTruth(StackbenchProperties()).on).isFalse()
        assertThat(PinningTruth(StackbenchProperties(pinningTruth = StackbenchProperties.PinningTruth(enabled = true))).on).isTrue()
    }

    @Test
    fun `every sleep of a virtual thread pins its carrier for the sleep, inside a class initializer`(@TempDir dir: Path) {
        val file = dir.resolve("pinned.jfr")
        Recording().use { r ->
            r.enable("jdk.VirtualThreadPinned").withThreshold(java.time.Duration.ofMillis(1)).withStackTrace()
            r.start()
            repeat(3) { Thread.ofVirtual().start { PinningTruth.sleepInClassInit(SLEEP_MS * 1_000_000) }.join() }
            Thread.ofPlatform().start { PinningTruth.sleepInClassInit(SLEEP_MS * 1_000_000) }.join()
            r.stop()
            r.dump(file)
        }
        val events = RecordingFile.readAllEvents(file).filter { it.eventType.name == "jdk.VirtualThreadPinned" }
        assertThat(events).`as`("one pin per virtual thread's sleep, none for the platform thread's").hasSize(3)
        for (e in events) {
            assertThat(e.duration.toMillis()).isGreaterThanOrEqualTo(SLEEP_MS)
            val frames = e.stackTrace.frames.map { "${it.method.type.name}.${it.method.name}" }
            assertThat(frames).`as`("the stack of the pin").contains("${ClassInitSleep::class.java.name}.<clinit>")
            assertThat(frames.first { !it.startsWith("java.") && !it.startsWith("jdk.") })
                .`as`("the first frame outside the JDK, the one the lab's probe names").isEqualTo("${PinningTruth::class.java.name}\$Companion.sleepPending")
        }
    }

    private companion object {
        const val SLEEP_MS = 30L
    }
}
