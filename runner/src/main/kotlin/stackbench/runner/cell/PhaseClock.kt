package stackbench.runner.cell

import stackbench.runner.results.Timings
import java.time.Instant

/** Where a cell's time comes from: the system's clocks, or a test's own. */
interface Ticker {
    fun nanoTime(): Long
    fun now(): Instant

    companion object {
        val SYSTEM = object : Ticker {
            override fun nanoTime() = System.nanoTime()
            override fun now(): Instant = Instant.now()
        }
    }
}

/** Wall-clock marks of a cell's phases. */
class PhaseClock(private val ticker: Ticker = Ticker.SYSTEM) {
    private val start = ticker.nanoTime()
    private var last = start
    val spans = linkedMapOf<String, Long>()

    fun mark(phase: String) {
        val now = ticker.nanoTime()
        spans[phase] = (now - last) / 1_000_000
        last = now
    }

    fun timings() = Timings(
        spans["start"] ?: 0, spans["verify"] ?: 0, spans["warmup"] ?: 0, spans["measured"] ?: 0, spans["stop"] ?: 0,
        (ticker.nanoTime() - start) / 1_000_000,
    )

    val startedAt: Instant = ticker.now()
}
