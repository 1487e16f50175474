package stackbench.runner.cell

import stackbench.runner.database.RunningDatabase
import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.probes.ProbeContext
import stackbench.runner.probes.ProbeKind
import stackbench.runner.results.ProbeRecord
import stackbench.runner.suite.Suite

/**
 * The measurement probes of a run ([WindowProbe]), one of each kind in `probes/` that has something to measure: the
 * suite's `profiler:` (or `run --profile`), pinned carriers, allocation per request, the relay's CPU, the database.
 * Each acts at the measured window's edges; one that cannot measure a cell's app records why, and one that fails records that,
 * never failing the cell.
 */
class WindowProbes(private val probes: List<WindowProbe>) {

    /** One cell's probes: [start]ed at the warm-up's start (or the window's, without one), [windowStarted], then [end] gives each probe's record. */
    inner class Window(private val target: ProbeTarget) {
        private val active = probes.filter { it.applies(target) }.associateWith { it.unavailable(target) }

        internal fun warmupStarted() {
            for ((probe, why) in active) if (why == null) runCatching { probe.warmupStarted(target) }
        }

        fun windowStarted() {
            for ((probe, why) in active) if (why == null) runCatching { probe.windowStarted(target) }
        }

        fun end(facts: WindowFacts): Map<String, ProbeRecord> = active.entries.associate { (probe, why) ->
            probe.name to if (why != null) ProbeRecord(notes = listOf(why)) else
                runCatching { probe.windowEnded(target, facts) }.getOrElse { ProbeRecord(notes = listOf("the probe failed: ${it.message}")) }
        }
    }

    /** The cell's probes, told the warm-up started; null without probes. */
    fun start(target: ProbeTarget): Window? = if (probes.isEmpty()) null else Window(target).also { it.warmupStarted() }

    companion object {
        val NONE = WindowProbes(emptyList())

        /** The probes of every kind there is (`probes/`, [ProbeKind.ALL]) for this run. */
        fun of(suite: Suite, lab: Lab, database: RunningDatabase? = null): WindowProbes {
            val run = ProbeContext(suite, lab.home, lab.java, lab.json, database)
            return WindowProbes(ProbeKind.ALL.flatMap { it.probes(run) })
        }
    }
}
