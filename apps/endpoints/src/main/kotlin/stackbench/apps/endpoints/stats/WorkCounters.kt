package stackbench.apps.endpoints.stats

import org.springframework.beans.factory.annotation.Autowired
import org.springframework.stereotype.Component
import reactor.core.publisher.Mono
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.contract.EndpointWork
import stackbench.contract.Stats
import stackbench.workloads.Stretches
import java.util.TreeMap
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.atomic.LongAdder

/**
 * Each endpoint's work and its CPU time, for the stats side channel's `work`: per path (without the query), how many
 * requests did the work and the CPU time the work took on the thread that ran it (see [EndpointWork]). Off, at no
 * cost beyond one boolean check, when the stats side channel is off (`stackbench.stats.port` = 0): nobody could read it.
 *
 * The endpoints wrap their work, and only their work, in one of:
 * - [cpu]: work that runs on the calling thread without blocking or suspending (the primes, a handler body);
 * - [blocking]: work that may block the calling thread (a sleep, a blocking downstream call);
 * - [stretches]: work that yields between stretches and may change thread (`coop`): the CPU of each stretch, on
 *   whichever thread ran it, summed;
 * - [unmeasured] and [counted]: work that no thread of the request runs (a timer, an asynchronous client): counted only.
 *
 * Cost per request: two reads of the thread CPU clock (a system call each, about 0.18 µs on the lab VM, more where
 * the FFM call falls back to the MXBean) and a few adds to [LongAdder]s found in a [ConcurrentHashMap] by path; for
 * work in stretches, two reads a stretch, on one request in [Stats.STRETCH_SAMPLE].
 */
@Component
class WorkCounters(val enabled: Boolean, @PublishedApi internal val clock: ThreadCpuClock) {

    @Autowired
    constructor(properties: StackbenchProperties) : this(properties.stats.port != 0, JvmThreadCpu)

    private val paths = ConcurrentHashMap<String, Counter>()

    /** Runs [work], which stays on the calling thread, and adds its CPU time to [path]'s. */
    final inline fun <T> cpu(path: String, work: () -> T): T {
        if (!enabled) return work()
        val start = clock.running()
        try {
            return work()
        } finally {
            record(path, start, clock.running())
        }
    }

    /** Runs [work], which may block the calling thread, and adds its CPU time to [path]'s (unmeasured on a virtual thread). */
    final inline fun <T> blocking(path: String, work: () -> T): T {
        if (!enabled) return work()
        val start = clock.waiting()
        try {
            return work()
        } finally {
            record(path, start, clock.waiting())
        }
    }

    /**
     * Runs [work], giving it the [Stretches] hook to call around each stretch it runs on one thread (`coop`'s batches,
     * between which it yields and may change thread), and adds the CPU time of those stretches, each read on the thread
     * that ran it, to [path]'s: one request, whatever the number of stretches.
     *
     * Only one request in [Stats.STRETCH_SAMPLE] of a path is measured; the others are counted unmeasured. Every request of a
     * path does the same work, so the mean over the sample is the mean, while the clock reads cost the rest nothing.
     * Timing every request cost the smallest batches most, which the article compares with the largest: primes up to
     * 300,000 in batches of 100 are 3,000 stretches, and one request at a time on one pinned CPU took 26.4 ms with
     * every request timed, 23.6 ms with the counters off and 24.2 ms timing one in 16 (medians of six 20 s windows).
     */
    suspend fun <T> stretches(path: String, work: suspend (Stretches) -> T): T {
        if (!enabled) return work(Stretches.NONE)
        val counter = counter(path)
        if (!counter.sampled()) {
            try {
                return work(Stretches.NONE)
            } finally {
                counter.add(ThreadCpuClock.UNAVAILABLE)
            }
        }
        val tally = CpuTally(clock)
        try {
            return work(tally)
        } finally {
            counter.add(tally.total())
        }
    }

    /** Counts one request of [path] whose work is not measured. */
    fun unmeasured(path: String) {
        if (enabled) add(path, ThreadCpuClock.UNAVAILABLE)
    }

    /** Counts one unmeasured request of [path] when [future] completes, before anything chained to the answer runs. */
    fun <T> counted(path: String, future: CompletableFuture<T>): CompletableFuture<T> =
        if (!enabled) future else future.whenComplete { _, _ -> add(path, ThreadCpuClock.UNAVAILABLE) }

    /** Counts one unmeasured request of [path] when [mono] succeeds or fails, before its value goes on. */
    fun <T : Any> counted(path: String, mono: Mono<T>): Mono<T> =
        if (!enabled) mono else mono.doOnSuccess { add(path, ThreadCpuClock.UNAVAILABLE) }.doOnError { add(path, ThreadCpuClock.UNAVAILABLE) }

    @PublishedApi
    internal fun record(path: String, start: Long, end: Long) =
        add(path, if (start < 0 || end < start) ThreadCpuClock.UNAVAILABLE else end - start)

    /** Adds one request of [path] with [cpuNanos] of work, or unmeasured when it is negative. */
    fun add(path: String, cpuNanos: Long) {
        counter(path).add(cpuNanos)
    }

    private fun counter(path: String): Counter = paths[path] ?: paths.computeIfAbsent(path) { Counter() }

    /** Every path that has done work so far, in path order. */
    fun snapshot(): Map<String, EndpointWork> {
        val work = TreeMap<String, EndpointWork>()
        for ((path, counter) in paths) {
            val read = counter.read()
            if (read.count > 0) work[path] = read
        }
        return work
    }

    private class Counter {
        private val count = LongAdder()
        private val cpuNanos = LongAdder()
        private val unmeasured = LongAdder()
        private val tickets = AtomicLong()

        /** Whether the next request of [stretches] is one of the sample: the first, then every [Stats.STRETCH_SAMPLE]th. */
        fun sampled(): Boolean = tickets.getAndIncrement() % Stats.STRETCH_SAMPLE == 0L

        fun add(nanos: Long) {
            if (nanos >= 0) cpuNanos.add(nanos) else unmeasured.increment()
            count.increment()
        }

        /** Read while others add: each figure is exact when nothing is in flight, and close otherwise. */
        fun read() = EndpointWork(count.sum(), cpuNanos.sum(), unmeasured.sum())
    }
}

/**
 * The CPU time of a piece of work run in stretches: each stretch read before and after on the thread that runs it.
 * The stretches of one piece of work run one after the other, each handing over to the next through a coroutine
 * dispatcher's queue (a happens-before edge), and the last ends before the work returns, so plain fields are enough.
 */
internal class CpuTally(private val clock: ThreadCpuClock) : Stretches {
    private var nanos = 0L
    private var measured = true

    override fun start(): Long = clock.running()

    override fun end(start: Long) {
        val end = clock.running()
        if (start < 0 || end < start) measured = false else nanos += end - start
    }

    /** The sum, or [ThreadCpuClock.UNAVAILABLE] if any stretch could not be measured. */
    fun total(): Long = if (measured) nanos else ThreadCpuClock.UNAVAILABLE
}
