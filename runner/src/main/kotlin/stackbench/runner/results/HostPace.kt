package stackbench.runner.results

/**
 * The machine's pace over one measured window (or the run's calibration), from [stackbench.runner.probe.PaceCanary]:
 * the CPU time a fixed piece of register-only arithmetic took, as the median and the 10th and 90th percentiles of
 * its readings, in ns. [relative] is the median against the run's calmest median so far (1.0 = as fast as the
 * calmest; 1.15 = the same work cost 15 % more CPU time), [floorRelative] the 10th percentile against the calmest
 * 10th percentile: the pace of the window's fastest tenth, which decides `host-slow` ([HostPace]). Beside them, the
 * steal time on the app's and the load generator's CPUs over the same window.
 */
data class PaceReading(
    val medianNs: Double,
    val p10Ns: Double,
    val p90Ns: Double,
    val readings: Int,
    val relative: Double? = null,
    /** The 10th percentile against the run's calmest 10th percentile so far; null in runs measured before it was recorded. */
    val floorRelative: Double? = null,
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
 * The run's calmest pace so far: the fastest median, and the fastest 10th percentile, of its calibration and of every
 * window. A window whose 10th percentile is slower than the calmest by more than [SLOW] is flagged `host-slow`.
 *
 * The floor, not the median, decides, because the canary's CPU time grows in two ways that only the floor tells
 * apart. A host that runs the virtual CPU slower (a lower clock, time the hypervisor took and the guest charged to
 * the running thread) slows every piece, the fastest tenth too. The lab's own processes waking often on the canary's
 * CPU (a database's backends, a load generator) charge interrupts and scheduling to whichever piece they cut into,
 * so some pieces read slow while the fastest tenth stays where it was: measured on CPU 0 of this 2-vCPU host, with
 * 30 threads waking every millisecond beside the canary (25,000 context switches a second), the median read 12 %
 * slow and the 10th percentile 1 %; with a busy loop there, or wrk driving 33,600 req/s over loopback from it, neither
 * moved (docs/methodology.md, rules `2026-11-28.2`).
 */
class HostPace {
    private var calmestNs: Double? = null
    private var calmestFloorNs: Double? = null

    /** [reading] placed against the calmest pace so far, this reading included. */
    @Synchronized
    fun place(reading: PaceReading?): PaceReading? {
        if (reading == null) return null
        val calmest = minOf(calmestNs ?: reading.medianNs, reading.medianNs)
        val calmestFloor = minOf(calmestFloorNs ?: reading.p10Ns, reading.p10Ns)
        calmestNs = calmest
        calmestFloorNs = calmestFloor
        return reading.copy(relative = reading.medianNs / calmest, floorRelative = reading.p10Ns / calmestFloor)
    }

    companion object {
        /** More CPU time for the same work, in the window's fastest tenth, than this over the calmest, and the window's figures are the host's as much as the app's. */
        const val SLOW = 0.10

        /** More than this share of a CPU's time taken by the hypervisor (steal) in the window: the same. */
        const val STOLEN = 0.05
    }
}
