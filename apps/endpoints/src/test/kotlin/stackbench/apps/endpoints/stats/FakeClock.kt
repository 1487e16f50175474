package stackbench.apps.endpoints.stats

import java.util.concurrent.atomic.AtomicLong

/** A thread CPU clock for tests: every read is [step] ns after the previous one, or unavailable. */
class FakeClock(private val step: Long = 100, @Volatile var available: Boolean = true) : ThreadCpuClock {
    private val now = AtomicLong()

    override fun running(): Long = if (available) now.addAndGet(step) else ThreadCpuClock.UNAVAILABLE

    override fun waiting(): Long = running()

    /** How many times it was read while available. */
    val reads: Long get() = now.get() / step
}
