package stackbench.runner.probe

import stackbench.runner.ceiling.Ceilings
import stackbench.runner.plan.WindowRule
import stackbench.runner.results.Ceiling
import stackbench.runner.results.JvmWindow
import stackbench.runner.results.LoadResult
import stackbench.runner.results.WindowRecord
import stackbench.runner.stats.WindowClassifier
import stackbench.runner.stats.WindowPrecision
import kotlin.math.ceil

/** What the measured window showed beyond the driver's figures: its shape, and the JVM's own signals over it. Pure. */
object WindowFigures {

    /**
     * The window's shape from the app's own per-second completions ([WindowClassifier]: flat, warming, slowing, no
     * steady state), how precisely the series pins its own mean ([WindowPrecision]) and, for a closed model, the round
     * trips per connection at the measured median latency.
     *
     * The window's start-up is left out of the shape ([startupSeconds]): every window starts from an idle app (the
     * quiet wait), so its first second holds the load generator's ramp (connections opening, a round trip before the
     * first answer): at 100 ms per request a tenth of that second has no completion whatever the app's state. A closed
     * load whose round trip is seconds long starts in step for longer: every connection sends its first request at
     * once, so the answers come back together a round trip later, and spread out over the next. After the start-up,
     * a change of level is the app's. [WindowRecord.steadyFromSecond] counts from the window's start.
     */
    fun shape(serverPerSecond: List<Double?>, measured: LoadResult?, closed: Boolean, plannedMs: Long?): WindowRecord? {
        val roundTrips = if (closed && measured != null) WindowRule.roundTrips(measured.wallSeconds, measured.latency.p50) else null
        val (skip, series) = afterStartup(serverPerSecond, roundTrips) ?: return null
        val precision = WindowPrecision.of(series)
        return classified(WindowRecord("", null, "", roundTrips, plannedMs, precision?.relative, precision?.autocorrelationSeconds), series, skip)
    }

    /**
     * The window's shape from the load generator's successful answers a second ([LoadResult.perSecond]), for a load
     * whose app counts nothing of its own (a scenario on an own jar): the same classification, its reason saying
     * whose series it read; null without a series.
     */
    fun fromDriver(measured: LoadResult): WindowRecord? =
        shape(measured.perSecond.dropLast(1).map { it.successes.toDouble() }, measured, closed = false, plannedMs = null)
            ?.let { it.copy(reason = "$DRIVER_SERIES; ${it.reason}") }

    /** What a shape read by [fromDriver] says of its series. */
    const val DRIVER_SERIES = "the load generator's answers a second, its last (cut by the window's end) left out (the app counts none of its own)"

    /**
     * [window] classified again from the same per-second series by today's [WindowClassifier]: its shape, steady second
     * and reason replaced, every other figure kept; null when the series is gone (no window was recorded from it).
     */
    fun reshape(window: WindowRecord, serverPerSecond: List<Double?>): WindowRecord? {
        val (skip, series) = afterStartup(serverPerSecond, window.roundTripsPerConnection) ?: return null
        return classified(window, series, skip)
    }

    /** The seconds left out at the start ([startupSeconds]) and the answered seconds after them; null when none is. */
    private fun afterStartup(serverPerSecond: List<Double?>, roundTrips: Double?): Pair<Int, List<Double>>? {
        val skip = startupSeconds(serverPerSecond.size, roundTrips)
        return serverPerSecond.drop(skip).filterNotNull().takeIf { it.isNotEmpty() }?.let { skip to it }
    }

    /**
     * The seconds at the start of a window of [seconds] that its shape leaves out: the first, or for a closed load
     * holding [roundTrips] round trips per connection, its first [STARTUP_ROUND_TRIPS] round trips, whichever is
     * longer, and never more than half the window. Cooperative `yield()` at primes to 300,000 (round trips of about
     * 10 s) read 0.2 req/s for 6 s, 127 for 2, then 32, 6, 66 and 11 for 2-4 s each before its level of 38.4 from
     * second 19, and was flagged `slowing` for that start; Tomcat's request threads at the same limit began 3 s at
     * 35 req/s against their 48.
     */
    fun startupSeconds(seconds: Int, roundTrips: Double?): Int {
        if (roundTrips == null || roundTrips <= 0 || seconds <= 0) return 1
        val startup = ceil(STARTUP_ROUND_TRIPS * seconds / roundTrips).toInt()
        return startup.coerceIn(1, maxOf(1, seconds / 2))
    }

    /** The round trips a closed window's start-up lasts: its first answers come back together, then spread out. */
    const val STARTUP_ROUND_TRIPS = 2.0

    /** [window] with the shape, steady second (counted from the window's start) and reason [series], read from second [skip] on, classifies as. */
    private fun classified(window: WindowRecord, series: List<Double>, skip: Int): WindowRecord {
        val c = WindowClassifier.classify(series)
        val from = if (skip == 1) "from the second second on: " else "from second ${skip + 1} on, after the closed load's start-up (${STARTUP_ROUND_TRIPS.toInt()} round trips): "
        return window.copy(shape = c.shape.id, steadyFromSecond = c.steadyFrom?.plus(skip), reason = from + c.reason)
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
