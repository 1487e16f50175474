package stackbench.runner.probe

/**
 * Context switches of a whole process, from per-thread counters. /proc/PID/status counts only the main
 * thread, and a thread's counters vanish with it, so this keeps each thread's last reading and adds up
 * what every thread did since it was first seen (a thread new since the last reading contributes all of
 * its count). Switches a thread made between its last reading and its exit are lost: sample often.
 */
class ThreadSwitches {
    private val last = HashMap<Int, Pair<Long, Long>>()
    private var first = true
    var voluntary = 0L
        private set
    var involuntary = 0L
        private set

    /** Takes one reading: thread id → (voluntary, involuntary) as the kernel reports them now. */
    fun update(readings: Map<Int, Pair<Long, Long>>) {
        for ((tid, now) in readings) {
            val before = last[tid]
            if (before != null) {
                voluntary += (now.first - before.first).coerceAtLeast(0)
                involuntary += (now.second - before.second).coerceAtLeast(0)
            } else if (!first) {
                voluntary += now.first
                involuntary += now.second
            }
            last[tid] = now
        }
        last.keys.retainAll(readings.keys)
        first = false
    }
}
