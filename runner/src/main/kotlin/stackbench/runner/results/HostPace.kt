package stackbench.runner.results

/**
 * The machine's pace over one measured window (or the run's calibration), from [stackbench.runner.probe.PaceCanary]:
 * the CPU time a fixed piece of register-only arithmetic took, as the median and the 10th and 90th percentiles of
 * its readings, in ns. [relative] is the median against the run's calmest pace so far (1.0 = as fast as the
 * calmest; 1.15 = the host made the same work cost 15 % more CPU time). Beside it, the steal time on the app's
 * and the load generator's CPUs over the same window.
 */
data class PaceReading(
    val medianNs: Double,
    val p10Ns: Double,
    val p90Ns: Double,
    val readings: Int,
    val relative: Double? = null,
    /** The share of the app's CPUs' time in the window that the hypervisor took (steal, [stackbench.runner.probe.CpuSteal]); null when unread. */
    val appCpuSteal: Double? = null,
    /** The same on the load generator's CPUs (the runner's own, where the canary ran). */
    val driverCpuSteal: Double? = null,
) {
    companion object {
        /** Null for no readings. */
        fun of(nanos: List<Long>): PaceReading? {
            if (nanos.isEmpty()) return null
            val sorted = nanos.sorted()
            fun at(q: Double) = sorted[((sorted.size - 1) * q).toInt()].toDouble()
            return PaceReading(at(0.5), at(0.1), at(0.9), sorted.size)
        }
    }
}

/**
 * The run's calmest pace so far: the fastest median of its calibration and of every window. Windows are placed
 * against it; a window slower than it by more than [SLOW] is flagged `host-slow`.
 */
class HostPace {
    private var calmestNs: Double? = null

    /** [reading] placed against the calmest pace so far, this reading included. */
    @Synchronized
    fun place(reading: PaceReading?): PaceReading? {
        if (reading == null) return null
        val calmest = minOf(calmestNs ?: reading.medianNs, reading.medianNs)
        calmestNs = calmest
        return reading.copy(relative = reading.medianNs / calmest)
    }

    companion object {
        /** More CPU time for the same work than this over the calmest, and the window's figures are the host's as much as the app's. */
        const val SLOW = 0.10

        /** More than this share of a CPU's time taken by the hypervisor (steal) in the window: the same. */
        const val STOLEN = 0.05
    }
}
