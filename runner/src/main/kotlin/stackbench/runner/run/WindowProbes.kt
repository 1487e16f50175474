package stackbench.runner.run

import stackbench.runner.probe.AllocationProbe
import stackbench.runner.database.DatabaseProbe
import stackbench.runner.database.RunningDatabase
import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.RelayProbe
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.profiler.AsyncProfilerLibrary
import stackbench.runner.profiler.PinningProbe
import stackbench.runner.profiler.ProfilerProbe
import stackbench.runner.results.ProbeRecord
import stackbench.runner.suite.Suite

/**
 * The measurement probes of a run ([WindowProbe]): the suite's `profiler:` (or `run --profile`), pinned carriers, and
 * allocation per request. Each acts at
 * the measured window's edges; one that cannot measure a cell's app records why, and one that fails records that,
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

        /**
         * A profiler for each mode the suite's apps are profiled with (the suite's `profiler:`, or an app's own), the
         * pinned-carrier count for every app on virtual threads, allocation per request for every JVM, the relay's CPU for
         * every app behind an emulated round trip, and the run's [database], if any.
         */
        fun of(suite: Suite, lab: Lab, database: RunningDatabase? = null): WindowProbes = WindowProbes(listOfNotNull(
            *profilers(suite, lab).toTypedArray(),
            PinningProbe(lab.java, lab.json),
            AllocationProbe(lab.json),
            RelayProbe(),
            database?.let { DatabaseProbe(it, lab.json) },
        ))

        /** One profile probe per profiler spec in use, each for the apps it profiles. */
        private fun profilers(suite: Suite, lab: Lab): List<WindowProbe> {
            val bySpec = suite.apps.mapNotNull { app -> suite.profilerOf(app)?.let { it to app.name } }.groupBy({ it.first }, { it.second })
            if (bySpec.isEmpty()) return emptyList()
            val library = AsyncProfilerLibrary.extract(lab.home.resolve(".tools/lib"))
            return bySpec.map { (spec, apps) -> ProfilerProbe(spec, lab.java, library, lab.json, apps.toSet()) }
        }
    }
}
