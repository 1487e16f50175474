package stackbench.runner.suite

import stackbench.runner.catalog.DriverCatalog
import java.time.Duration

/**
 * Every default a suite may leave out, in one place. A cell resolves each setting as: command line, else
 * suite, else this. docs/suite-format.md lists the same values.
 */
object Defaults {
    val DRIVER = DriverCatalog.OHA
    const val CONNECTIONS = 50
    val WARMUP: Duration = Duration.ofSeconds(10)
    val DURATION: Duration = Duration.ofSeconds(30)
    val TIMEOUT: Duration = Duration.ofSeconds(30)

    /** Warm-up until steady: the slice in which the app's throughput and JIT time are read (cell/WarmupWatch). */
    val WARMUP_SLICE: Duration = Duration.ofSeconds(1)

    /**
     * Priming a new app process: `/noop` at this many connections, until steady, at least and at most this long.
     * One connection: on one CPU each busy request thread takes its share of the CPU from the JIT compiler threads
     * (seen: Tomcat primed at 50 connections still compiling after 60 s; at 4, quiet after about 40 s; at 1, after
     * 25-35 s). At most 30 s: the first cell's own warm-up goes on until steady, priming only gives it a head start.
     */
    const val PRIME_CONNECTIONS = 1
    val PRIME_MIN: Duration = Duration.ofSeconds(5)
    val PRIME_MAX: Duration = Duration.ofSeconds(30)
    /**
     * Then `/noop` at this many connections until steady again (at most [PRIME_SATURATION_MAX]), and the exchange's CPU
     * at saturation is read over its last [PRIME_SATURATION] (after [PRIME_SATURATION_SETTLE] to fill the connections).
     * Until steady, not for a fixed 3 s: 50 connections make the JIT compile paths one connection never took (the
     * exchange read 0.049 and 0.063 ms in its first 3 s, against 0.038-0.044 ms in later steady windows). At most 10 s:
     * at 50 connections the JIT goes on taking a few % for longer than that, and its threads' CPU is left out of the
     * exchange's cost anyway.
     */
    const val PRIME_SATURATION_CONNECTIONS = 50
    val PRIME_SATURATION: Duration = Duration.ofSeconds(3)
    val PRIME_SATURATION_SETTLE: Duration = Duration.ofSeconds(1)
    val PRIME_SATURATION_MAX: Duration = Duration.ofSeconds(10)
    /** What priming takes for plan estimates (Tomcat on one pinned CPU: about 30 s). */
    val PRIME_ESTIMATE: Duration = Duration.ofSeconds(30)

    /**
     * A closed-model window holds at least this many round trips per connection at the measured median latency, or as
     * many waves of the binding concurrency limit ([stackbench.runner.results.WindowRecord.waves]).
     */
    const val MIN_ROUND_TRIPS = 20

    /**
     * A window pins its mean throughput within this share (the 95 % interval's half-width, from its own per-second
     * series and their autocorrelation); wider is flagged `imprecise`: the window was too short for its noise.
     */
    const val WINDOW_PRECISION = 0.05

    /** After warm-up, the app counts as quiet when no request completes for this long (at most the cell's timeout). */
    val QUIET_FOR: Duration = Duration.ofMillis(300)
    /** Each cell three times (interleaved): the fewest that give a median with a bootstrap interval. */
    const val REPETITIONS = 3

    /** One app process per configuration unless a suite asks `processes:` (with `restart: cell` each cell is its own). */
    const val PROCESSES = 1

    /** The articles' containers: 1 CPU (as a quota), 1 GiB, heap 75 % of it. */
    const val CPUS = 1.0
    const val MEMORY_BYTES = 1L shl 30
    const val HEAP_PERCENT = 75

    const val CPU_LIMIT = 10_000L
    const val COOP_BATCH = 1_000L
    const val DELAY_MS = 100L

    /** Capacity search: where the rate steps start, the highest rate tried, and when bisection stops (relative). */
    const val CAPACITY_START_RATE = 50.0
    const val CAPACITY_MAX_RATE = 50_000.0
    const val CAPACITY_PRECISION = 0.05
    const val SLO_ERROR_RATE = 0.001

    /** Time a cell spends outside its load, for plan estimates: start, verify, stop. */
    val CELL_OVERHEAD_ESTIMATE: Duration = Duration.ofSeconds(8)
}
