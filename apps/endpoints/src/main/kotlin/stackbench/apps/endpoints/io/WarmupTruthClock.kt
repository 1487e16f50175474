package stackbench.apps.endpoints.io

import org.slf4j.LoggerFactory
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.contract.WarmupTruth
import java.time.Duration
import java.util.concurrent.atomic.AtomicReference

/**
 * The known-truth warm-up mode of the I/O endpoints (`stackbench.warmup-truth.seconds` = T, `.extra-ms` = E): a
 * request arriving t seconds after the clock started waits `E × (1 − t/T)` ms on top of its delay, and nothing extra
 * from t = T on ([WarmupTruth.extraNanos]). The clock starts at the first request that asks for its extra, so that
 * the app's own start-up does not eat into T; the first `.skip-requests` of them (K, default 0) pass without extra
 * and without starting it: a lab that checks an answer once before its load (stackbench's verification call, then
 * its priming on `/noop`) sets K = 1, so the clock starts with the load. Off (T = 0): [extraNanos] is 0.
 */
@Component
class WarmupTruthClock(properties: StackbenchProperties) {
    private val seconds = properties.warmupTruth.seconds
    private val extraMs = properties.warmupTruth.extraMs
    private val skip = properties.warmupTruth.skipRequests
    private val seen = java.util.concurrent.atomic.AtomicLong()
    private val start = AtomicReference<Start?>(null)

    val on: Boolean = seconds > 0

    init {
        if (on) {
            log.info("stackbench: warm-up truth ON: /io/blocking, /io/mono-delay and /io/suspend-delay wait {} ms more at " +
                "first, falling linearly to 0 at {} s after the first of them: not a benchmark run", extraMs, seconds)
        }
    }

    /** The extra wait of a request arriving now, in ns; the first call starts the clock. */
    fun extraNanos(): Long {
        if (!on) return 0
        if (skip > 0 && start.get() == null && seen.incrementAndGet() <= skip) return 0
        val now = System.nanoTime()
        val started = start.get() ?: run {
            val mine = Start(now, System.currentTimeMillis())
            start.compareAndExchange(null, mine) ?: mine.also {
                log.info("stackbench: warm-up truth clock started at epoch ms {}, ends at epoch ms {}", it.epochMs, it.epochMs + seconds * 1000)
            }
        }
        return WarmupTruth.extraNanos(seconds, extraMs, now - started.nanos)
    }

    /** [delayMs] plus the extra wait of a request arriving now. */
    fun delay(delayMs: Long): Duration {
        val extra = extraNanos()
        return if (extra == 0L) Duration.ofMillis(delayMs) else Duration.ofMillis(delayMs).plusNanos(extra)
    }

    /** [delayMs] plus the extra wait of a request arriving now, rounded up to whole ms (for kotlinx `delay`). */
    fun delayMillis(delayMs: Long): Long {
        val extra = extraNanos()
        return if (extra == 0L) delayMs else delayMs + (extra + 999_999) / 1_000_000
    }

    /** What `/info` shows: null while off or not started. */
    fun info(): WarmupTruth? = start.get()?.let { WarmupTruth(seconds, extraMs, it.epochMs, it.epochMs + seconds * 1000) }

    private class Start(val nanos: Long, val epochMs: Long)

    private companion object {
        val log = LoggerFactory.getLogger(WarmupTruthClock::class.java)
    }
}
