package stackbench.runner.probe

import stackbench.runner.isolation.CgroupCounters
import stackbench.runner.results.GcPause
import stackbench.runner.results.ResourceSummary
import stackbench.runner.results.Sample

/**
 * Turns timestamped samples into the figures of one measured window. Counters are differenced
 * first-to-last inside the window, rates use each interval's own measured length, and nothing outside
 * the window counts.
 */
object ResourceSummaries {

    fun of(
        samples: List<Sample>,
        windowMs: Long,
        allottedCpus: Double,
        driverCpus: Double?,
        cgroupAtStart: CgroupCounters?,
        cgroupAtEnd: CgroupCounters?,
        /** The app's GC pauses; null without a GC log (an app that is not a JVM the lab started): unknown, not none. */
        gcPauses: List<GcPause>?,
        windowStartEpochMs: Long,
    ): ResourceSummary {
        val inWindow = samples.filter { it.tMs in 0..windowMs }.sortedBy { it.tMs }
        val first = inWindow.firstOrNull()
        val last = inWindow.lastOrNull()
        val spanMs = if (first != null && last != null) (last.tMs - first.tMs).toDouble() else 0.0

        fun cpu(s: Sample) = s.cgroupCpuMs ?: s.cpuMs
        val shares = inWindow.zipWithNext().mapNotNull { (a, b) ->
            val dt = (b.tMs - a.tMs).toDouble()
            val ca = cpu(a) ?: return@mapNotNull null
            val cb = cpu(b) ?: return@mapNotNull null
            if (dt <= 0) null else (cb - ca) / dt / allottedCpus
        }
        val cpuShare = if (first != null && last != null && spanMs > 0) {
            val a = cpu(first)
            val b = cpu(last)
            if (a != null && b != null) (b - a) / spanMs / allottedCpus else null
        } else null

        fun rate(f: (Sample) -> Long?): Pair<Long?, Double?> {
            val a = first?.let(f) ?: return null to null
            val b = last?.let(f) ?: return null to null
            val d = b - a
            return d to if (spanMs > 0) d * 1000.0 / spanMs else null
        }
        val (vol, volRate) = rate { it.voluntaryCtx }
        val (invol, involRate) = rate { it.involuntaryCtx }

        // the driver's own readings: a driver that ended with the window (wrk -d, oha -z) is gone by the window's last
        // sample, whose reading is then missing; its share comes from the readings it left, over their own span
        val driverReadings = inWindow.filter { it.driverCpuMs != null }
        val driverSpanMs = if (driverReadings.size >= 2) (driverReadings.last().tMs - driverReadings.first().tMs).toDouble() else 0.0
        val driverShare = if (driverSpanMs >= windowMs / 2.0 && driverCpus != null) {
            (driverReadings.last().driverCpuMs!! - driverReadings.first().driverCpuMs!!) / driverSpanMs / driverCpus
        } else null

        val windowEnd = windowStartEpochMs + windowMs
        val pauses = gcPauses.orEmpty().filter { it.epochMs in windowStartEpochMs..windowEnd }
        val gcKnown = gcPauses != null
        val rss = inWindow.mapNotNull { it.rssBytes }
        val intervals = inWindow.zipWithNext().map { (a, b) -> (b.tMs - a.tMs).toDouble() }

        return ResourceSummary(
            cpuShare = cpuShare,
            cpuShareMax = shares.maxOrNull(),
            rssMaxBytes = rss.maxOrNull(),
            rssMeanBytes = if (rss.isEmpty()) null else rss.average().toLong(),
            threadsMax = inWindow.mapNotNull { it.threads }.maxOrNull(),
            voluntaryCtxPerSecond = volRate,
            involuntaryCtxPerSecond = involRate,
            voluntaryCtx = vol,
            involuntaryCtx = invol,
            throttledPeriods = diff(cgroupAtStart?.throttledPeriods, cgroupAtEnd?.throttledPeriods),
            periods = diff(cgroupAtStart?.periods, cgroupAtEnd?.periods),
            throttledMs = diff(cgroupAtStart?.throttledNs, cgroupAtEnd?.throttledNs)?.let { it / 1e6 },
            memoryPeakBytes = cgroupAtEnd?.memoryPeakBytes,
            oomKills = diff(cgroupAtStart?.oomKills, cgroupAtEnd?.oomKills),
            gcPauses = pauses.size.takeIf { gcKnown },
            gcPauseTotalMs = pauses.sumOf { it.ms }.takeIf { gcKnown },
            gcPauseMaxMs = (pauses.maxOfOrNull { it.ms } ?: 0.0).takeIf { gcKnown },
            driverCpuShare = driverShare,
            driverCpus = driverCpus,
            serverPerSecond = serverPerSecond(inWindowOrNear(samples, windowMs), windowStartEpochMs, windowMs),
            sampleCount = inWindow.size,
            sampleIntervalMs = if (intervals.isEmpty()) null else intervals.average(),
            gcPausesList = pauses,
        )
    }

    private fun diff(a: Long?, b: Long?): Long? = if (a != null && b != null) b - a else null

    private fun inWindowOrNear(samples: List<Sample>, windowMs: Long) = samples.filter { it.tMs in -2_000..windowMs + 2_000 }

    /**
     * Completed exchanges in each whole second of the window, from the app's own counter readings,
     * each stamped by the app: the count at a second's edge is interpolated between the readings around it,
     * when they are at most [MAX_READING_GAP_MS] apart. A second with an edge inside a longer gap was not
     * observed and has no figure (null): a straight line drawn across the gap would fill it with seconds
     * that all read the gap's mean, and the changepoint analysis, which takes its noise from neighbouring
     * seconds' differences, would read the gap's zero differences as a quiet series and the real seconds
     * around it as changes of level.
     */
    fun serverPerSecond(samples: List<Sample>, windowStartEpochMs: Long, windowMs: Long): List<Double?> {
        val points = samples.mapNotNull { s -> s.serverEpochMs?.let { t -> s.serverCompleted?.let { t to it } } }
            .distinctBy { it.first }.sortedBy { it.first }
        if (points.size < 2) return emptyList()
        fun countAt(t: Long): Double? {
            val after = points.indexOfFirst { it.first >= t }
            if (after < 0) return null
            if (points[after].first == t) return points[after].second.toDouble()
            if (after == 0) return null
            val (t0, c0) = points[after - 1]
            val (t1, c1) = points[after]
            if (t1 - t0 > MAX_READING_GAP_MS) return null
            return c0 + (c1 - c0) * (t - t0).toDouble() / (t1 - t0)
        }
        return (0 until (windowMs / 1000).toInt()).map { sec ->
            val a = countAt(windowStartEpochMs + sec * 1000L)
            val b = countAt(windowStartEpochMs + (sec + 1) * 1000L)
            if (a != null && b != null) b - a else null
        }
    }

    /**
     * The longest gap between two readings of the app's counter that a second's edge is interpolated across. The
     * sampler asks every 250 ms; a stats channel that does not answer for longer is starved: Tomcat's, beside 200
     * request threads counting primes under a one-CPU quota, went 11-16 s without an answer, and half of a 226 s
     * window's seconds were interpolated.
     */
    const val MAX_READING_GAP_MS = 2_000L

    /**
     * The per-second series of a recorded window, computed again from the samples it keeps, so that a run measured
     * before a change to [serverPerSecond] reads as a new one would; the recorded [stored] series (its length gives
     * the window's whole seconds) when the samples hold no reading of the app's counter.
     */
    fun serverPerSecondAgain(samples: List<Sample>, stored: List<Double?>): List<Double?> {
        val anchor = samples.firstOrNull() ?: return stored
        if (stored.isEmpty() || samples.none { it.serverCompleted != null && it.serverEpochMs != null }) return stored
        val windowMs = stored.size * 1000L
        return serverPerSecond(inWindowOrNear(samples, windowMs), anchor.epochMs - anchor.tMs, windowMs)
    }
}
