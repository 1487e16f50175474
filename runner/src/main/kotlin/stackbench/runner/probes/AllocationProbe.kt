package stackbench.runner.probes

import java.time.Duration
import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.ServerCount
import stackbench.runner.probe.StatsChannel
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.results.ProbeRecord
import tools.jackson.databind.ObjectMapper

/**
 * Allocation and collection per request over the measured window, as JMH's `-prof gc` (`gc.alloc.rate.norm`): the
 * app's heap bytes allocated by every thread and its collectors' time, read from its stats side channel at the
 * window's edges and divided by the answers the app itself completed between them. Record `alloc`:
 * - `bytesPerRequest`: heap bytes allocated per completed exchange (the server's own work included: parsing,
 *   routing, serialization), the figure that stays when the CPU or the load changes;
 * - `mbPerSecond`: the allocation rate, MB (10⁶ bytes) a second;
 * - `gcMsPerSecond`: the collectors' time a second of the window (their MXBeans' collection time: pauses for the
 *   stop-the-world collectors the lab runs; a concurrent collector's MXBean may count concurrent work too);
 * - `gcMsPerRequest`: the same per completed exchange.
 * Only apps with the stats channel (the built-in apps) say; a JVM before 21 does not measure allocation (its figures
 * are then absent and a note says why).
 */
class AllocationProbe(private val json: ObjectMapper) : WindowProbe {
    override val name = NAME

    /** Every run has it; it applies to every JVM. */
    object Kind : ProbeKind {
        override fun probes(run: ProbeContext) = listOf(AllocationProbe(run.json))
    }

    /** Each cell's reading at its window's start. */
    private val first = java.util.concurrent.ConcurrentHashMap<String, ServerCount>()

    override fun applies(target: ProbeTarget): Boolean = target.jvm

    override fun unavailable(target: ProbeTarget): String? =
        if (target.statsUrl == null) "the app offers no stats side channel: its allocation and collections are not known" else null

    override fun windowStarted(target: ProbeTarget) {
        read(target)?.let { first[target.cellKey] = it }
    }

    override fun windowEnded(target: ProbeTarget, window: WindowFacts): ProbeRecord {
        val a = first.remove(target.cellKey) ?: return ProbeRecord(notes = listOf("the stats channel did not answer at the window's start"))
        val b = read(target) ?: return ProbeRecord(notes = listOf("the stats channel did not answer at the window's end"))
        return record(a, b)
    }

    private fun read(target: ProbeTarget): ServerCount? = StatsChannel(target.statsUrl!!, json).read(Duration.ofSeconds(2))

    companion object {
        const val NAME = "alloc"

        /** The window's figures from the readings at its edges [a] and [b]. Pure. */
        fun record(a: ServerCount, b: ServerCount): ProbeRecord {
            val seconds = (b.epochMs - a.epochMs) / 1000.0
            val completed = b.completed - a.completed
            if (seconds <= 0 || completed <= 0) return ProbeRecord(notes = listOf("no exchange completed between the window's readings"))
            val allocated = if (a.allocatedBytes != null && b.allocatedBytes != null) (b.allocatedBytes - a.allocatedBytes).toDouble() else null
            val gc = if (a.gcMs != null && b.gcMs != null) (b.gcMs - a.gcMs).toDouble() else null
            val figures = linkedMapOf(
                "bytesPerRequest" to allocated?.let { it / completed },
                "mbPerSecond" to allocated?.let { it / 1e6 / seconds },
                "gcMsPerSecond" to gc?.let { it / seconds },
                "gcMsPerRequest" to gc?.let { it / completed },
                "completed" to completed.toDouble(),
                "seconds" to seconds,
            )
            val notes = if (allocated == null) listOf("the app's stats channel reported no allocation (a JVM before 21 does not measure it)") else emptyList()
            return ProbeRecord(figures = figures, notes = notes)
        }
    }
}
