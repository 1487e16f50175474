package stackbench.runner.probe

import stackbench.runner.ceiling.Ceilings
import stackbench.runner.plan.WindowRule
import stackbench.runner.results.Ceiling
import stackbench.runner.results.JvmWindow
import stackbench.runner.results.LoadResult
import stackbench.runner.results.WindowRecord
import stackbench.runner.stats.WindowClassifier
import stackbench.runner.stats.WindowPrecision

/** What the measured window showed beyond the driver's figures: its shape, and the JVM's own signals over it. Pure. */
object WindowFigures {

    /**
     * The window's shape from the app's own per-second completions ([WindowClassifier]: flat, warming, slowing, no
     * steady state), how precisely the series pins its own mean ([WindowPrecision]) and, for a closed model, the round
     * trips per connection at the measured median latency.
     *
     * The first second is left out of the shape: every window starts from an idle app (the quiet wait), so its
     * first second holds the load generator's ramp (connections opening, a round trip before the first answer):
     * at 100 ms per request a tenth of that second has no completion whatever the app's state. From the second
     * second on, a change of level is the app's. [WindowRecord.steadyFromSecond] counts from the window's start.
     */
    fun shape(serverPerSecond: List<Double?>, measured: LoadResult?, closed: Boolean, plannedMs: Long?): WindowRecord? {
        val series = serverPerSecond.drop(1).filterNotNull()
        if (series.isEmpty()) return null
        val roundTrips = if (closed && measured != null) WindowRule.roundTrips(measured.wallSeconds, measured.latency.p50) else null
        val precision = WindowPrecision.of(series)
        return classified(WindowRecord("", null, "", roundTrips, plannedMs, precision?.relative, precision?.autocorrelationSeconds), series)
    }

    /**
     * [window] classified again from the same per-second series by today's [WindowClassifier]: its shape, steady second
     * and reason replaced, every other figure kept; null when the series is gone (no window was recorded from it).
     */
    fun reshape(window: WindowRecord, serverPerSecond: List<Double?>): WindowRecord? {
        val series = serverPerSecond.drop(1).filterNotNull()
        return if (series.isEmpty()) null else classified(window, series)
    }

    /** [window] with the shape, steady second (counted from the window's start) and reason [series] classifies as. */
    private fun classified(window: WindowRecord, series: List<Double>): WindowRecord {
        val c = WindowClassifier.classify(series)
        return window.copy(shape = c.shape.id, steadyFromSecond = c.steadyFrom?.plus(1), reason = "from the second second on: " + c.reason)
    }

    /**
     * The waves of completions a closed window held ([WindowRecord.waves]): its answers over the binding concurrency
     * limit of a Little's-law ceiling; null for an open model or another ceiling.
     */
    fun waves(measured: LoadResult?, closed: Boolean, ceiling: Ceiling?): Double? {
        val n = ceiling?.concurrency?.takeIf { closed && it > 0 && ceiling.law == Ceilings.LITTLE } ?: return null
        return measured?.let { it.responses.toDouble() / n }
    }

    /**
     * The JVM over the window, from the first and last stats readings the sampler took (one just before the window
     * opened, one just after it closed): compilation, GC and class loading in it, and the CPU of [path]'s work per
     * request (the app's own counter, on the threads that ran it) beside the whole JVM's CPU per completed request.
     */
    fun jvm(raw: List<RawSample>, path: String): JvmWindow? {
        val readings = raw.mapNotNull { it.server }.sortedBy { it.epochMs }
        if (readings.size < 2) return null
        val a = readings.first()
        val b = readings.last()
        fun d(x: Long?, y: Long?) = if (x != null && y != null) y - x else null
        val wa = a.work[path]
        val wb = b.work[path]
        val workCount = if (wb != null) wb.count - (wa?.count ?: 0) else null
        val workCpu = WorkCount.nanosPerRequest(wa, wb)?.let { it / 1e6 }
        val completed = b.completed - a.completed
        val cpu = d(a.processCpuNanos, b.processCpuNanos)
        return JvmWindow(
            compilationMs = d(a.compilationMs, b.compilationMs),
            gcMs = d(a.gcMs, b.gcMs),
            classesLoaded = d(a.loadedClasses, b.loadedClasses),
            workRequests = workCount,
            workCpuMsPerRequest = workCpu,
            cpuMsPerRequest = if (cpu != null && completed > 0) cpu / 1e6 / completed else null,
        )
    }
}
