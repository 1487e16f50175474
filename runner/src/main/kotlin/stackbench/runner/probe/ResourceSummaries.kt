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
        gcPauses: List<GcPause>,
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
        val pauses = gcPauses.filter { it.epochMs in windowStartEpochMs..windowEnd }
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
            gcPauses = pauses.size,
            gcPauseTotalMs = pauses.sumOf { it.ms },
            gcPauseMaxMs = pauses.maxOfOrNull { it.ms } ?: 0.0,
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
     * each stamped by the app: the count at a second's edge is interpolated between the readings around it.
     */
    fun serverPerSecond(samples: List<Sample>, windowStartEpochMs: Long, windowMs: Long): List<Double?> {
        val points = samples.mapNotNull { s -> s.serverEpochMs?.let { t -> s.serverCompleted?.let { t to it } } }
            .distinctBy { it.first }.sortedBy { it.first }
        if (points.size < 2) return emptyList()
        fun countAt(t: Long): Double? {
            val after = points.indexOfFirst { it.first >= t }
            if (after <= 0) return if (after == 0 && points[0].first == t) points[0].second.toDouble() else null
            val (t0, c0) = points[after - 1]
            val (t1, c1) = points[after]
            return c0 + (c1 - c0) * (t - t0).toDouble() / (t1 - t0)
        }
        return (0 until (windowMs / 1000).toInt()).map { sec ->
            val a = countAt(windowStartEpochMs + sec * 1000L)
            val b = countAt(windowStartEpochMs + (sec + 1) * 1000L)
            if (a != null && b != null) b - a else null
        }
    }
}
