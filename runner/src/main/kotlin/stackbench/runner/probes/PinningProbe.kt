package stackbench.runner.probes

import java.nio.file.Files
import java.nio.file.Path
import java.time.Instant
import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.profiler.Jcmd
import stackbench.runner.profiler.PinnedEvents
import stackbench.runner.results.ProbeRecord
import tools.jackson.databind.ObjectMapper

/**
 * Virtual threads that pinned their carrier in the measured window (JDK Flight Recorder's `jdk.VirtualThreadPinned`,
 * its threshold lowered to [THRESHOLD] so that short pins show), counted, timed and traced to the frame that pinned,
 * for every app on virtual threads. On JDK 24 and later `synchronized` no longer pins (JEP 491): what still does is a
 * blocking call under a native frame (JNI, a foreign-function upcall) or in a class initializer.
 *
 * The recording starts with the warm-up (starting the recorder costs the app a moment of CPU, better there than in the
 * window), and only the events that began in the window are counted ([PinnedEvents]).
 */
class PinningProbe(java: Path, private val json: ObjectMapper) : WindowProbe {
    override val name = "pinned"

    /** Every run has it; it applies to the apps on virtual threads. */
    object Kind : ProbeKind {
        override fun probes(run: ProbeContext) = listOf(PinningProbe(run.java, run.json))
    }
    private val jcmd = Jcmd.beside(java)
    private var started: Long? = null
    private var windowFrom: Instant? = null

    override fun applies(target: ProbeTarget): Boolean = target.virtualThreads

    override fun unavailable(target: ProbeTarget): String? = if (target.pid == null || !target.jvm) "not a JVM the lab started" else null

    override fun warmupStarted(target: ProbeTarget) = start(target)

    override fun windowStarted(target: ProbeTarget) {
        if (started != target.pid) start(target)
        windowFrom = Instant.now()
    }

    private fun start(target: ProbeTarget) {
        started = null
        val r = jcmd.run(target.pid!!, "JFR.start", "name=$NAME", "settings=none", "+jdk.VirtualThreadPinned#enabled=true",
            "+jdk.VirtualThreadPinned#threshold=$THRESHOLD", "+jdk.VirtualThreadPinned#stackTrace=true", "filename=${target.dir.resolve(FILE)}")
        if (r.ok) started = target.pid
    }

    override fun windowEnded(target: ProbeTarget, window: WindowFacts): ProbeRecord {
        if (started != target.pid) return ProbeRecord(notes = listOf("the recorder did not start"))
        started = null
        val stop = jcmd.run(target.pid!!, "JFR.stop", "name=$NAME")
        val file = target.dir.resolve(FILE)
        if (!stop.ok || !Files.isRegularFile(file)) return ProbeRecord(notes = listOf("the recorder did not stop: ${stop.output.take(200)}"))
        val pins = PinnedEvents.read(file, windowFrom ?: Instant.EPOCH)
        return ProbeRecord(
            figures = mapOf("events" to pins.events.toDouble(), "totalMs" to pins.totalMs, "maxMs" to pins.maxMs,
                "perThousandRequests" to if (window.responses > 0) pins.events * 1000.0 / window.responses else null),
            files = mapOf("jfr" to target.file(FILE)),
            details = json.valueToTree(pins),
        )
    }

    companion object {
        const val NAME = "stackbench-pinned"
        const val FILE = "pinned.jfr"
        /** Pins shorter than this are not recorded (the JDK's default is 20 ms). */
        const val THRESHOLD = "1ms"
    }
}
