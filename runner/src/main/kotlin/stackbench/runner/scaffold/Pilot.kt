package stackbench.runner.scaffold

import stackbench.runner.stats.Components
import java.util.Locale

/** A pilot's figures: each app process's throughput (req/s) under [seconds] of load at [connections] connections. */
data class PilotFigures(val perProcess: List<Double>, val seconds: Int, val connections: Int)

/** The processes a side init writes, and the comment lines that say where the number came from. */
data class ProcessChoice(val processes: Int, val comment: List<String>)

/**
 * How many app processes a side the suite runs, from the spread of a short pilot's processes: the fewest a side
 * whose interval would decide an unchanged service the same as its baseline within the gate's default band (the
 * question `gate` asks of it), by the estimate `plan` gives from a run ([Components.processesNeeded]: Welch's
 * interval on process means, at 95 %). At least 2 (the fewest that give an interval), at most [MAX]. Pure.
 */
object Pilot {
    const val DEFAULT = 3
    const val MAX = 10
    const val MIN = 2

    fun choose(pilot: PilotFigures?, band: Double, confidence: Double = 0.95): ProcessChoice {
        if (pilot == null) return ProcessChoice(DEFAULT, listOf("no pilot (--no-pilot): $DEFAULT processes a side, the default; a short run " +
            "(stackbench run FILE --scale 0.3) records the spread, and stackbench plan FILE then says how many would decide"))
        val rates = pilot.perProcess
        val shown = rates.joinToString(", ") { "%.1f".format(Locale.ROOT, it) }
        val head = "pilot: ${rates.size} processes, ${pilot.seconds} s each at ${pilot.connections} connections (the JDK's HTTP client, nothing pinned): $shown req/s"
        if (rates.size < 2 || rates.any { it <= 0.0 }) {
            return ProcessChoice(DEFAULT, listOf(head, "too few processes answered to measure a spread: $DEFAULT processes a side, the default"))
        }
        val spread = Components.of(rates.map { listOf(it) })!!
        val relative = "%.1f %%".format(Locale.ROOT, 100 * Math.sqrt(spread.between))
        val needed = Components.processesNeeded(spread, spread, 1.0, band, confidence, max = 20)
        val bandShown = "±%.0f %%".format(Locale.ROOT, 100 * band)
        val chosen = (needed ?: MAX).coerceIn(MIN, MAX)
        val why = when {
            needed == null -> "at a spread of $relative between processes even 20 a side would not tell an unchanged service within $bandShown: " +
                "$MAX a side (the most init writes); a calmer machine or longer windows narrow it"
            needed > MAX -> "at a spread of $relative between processes about $needed a side would tell an unchanged service within $bandShown; init writes at most $MAX"
            else -> "at a spread of $relative between processes about $needed a side tell an unchanged service within $bandShown (the gate's default band)"
        }
        return ProcessChoice(chosen, listOf(head, why))
    }
}
