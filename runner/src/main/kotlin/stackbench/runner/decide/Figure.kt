package stackbench.runner.decide

import stackbench.runner.ceiling.Ceilings
import stackbench.runner.results.Format
import stackbench.runner.results.CellResult
import stackbench.runner.results.Efficiency
import stackbench.runner.results.Flag
import stackbench.runner.results.Flags
import stackbench.runner.results.TimedOutTail
import stackbench.runner.stats.Statistics

/**
 * A throughput within [Flags.CEILING_SLACK] of its Little's-law ceiling was set by the wait its requests hold a thread or
 * a connection for, not by the CPU: a JIT still at work in or before the window (`compiling`, `unsteady`), or a host
 * that ran slow beside it (`host-slow`: the hypervisor's steal, a slower pace), took CPU that was not what bound the
 * rate, and neither could have raised it past the ceiling (had they held it down, it would not be at the ceiling).
 * Such a window counts for a throughput; its latency figures are still left out (the lost CPU lengthens each request).
 * A CPU-time ceiling waives nothing: the CPU is what binds there.
 */
private val AT_WAIT_CEILING = Flags.FigureWaiver(
    Flags.JIT + "host-slow",
    "windows at their Little's-law ceiling (within ${(Flags.CEILING_SLACK * 100).toInt()} %): the wait, not the CPU, bound their rate, so neither a JIT still at work nor a slow host could have raised it",
) { c -> Ceilings.recorded(c)?.let { it.law == Ceilings.LITTLE && (it.efficiency ?: 0.0) >= 1 - Flags.CEILING_SLACK } == true }

/** A figure of one cell that a comparison can set beside a published one, with its unit and format. */
enum class Figure(
    val id: String,
    val header: String,
    val value: (CellResult) -> Double?,
    val format: (Double?) -> String,
    /** The disqualifying flags this figure does not depend on, so they do not leave a cell out of it ([Flags.disqualifying]). */
    val waiver: Flags.FigureWaiver? = null,
    /** For a percentile of latency, its quantile (0.99 for p99): timeouts can hide its tail ([TimedOutTail]). */
    val quantile: Double? = null,
) {
    THROUGHPUT("throughput", "req/s", { it.window.measured?.throughput }, Format::rate, AT_WAIT_CEILING),

    /** The app's own count of answers per second over the window, whoever sent the requests (the load generator's, or a backlog's). */
    SERVER_THROUGHPUT("server-throughput", "app's own req/s", { c ->
        c.resources.summary?.serverPerSecond?.filterNotNull()?.takeIf { it.isNotEmpty() }?.average()
    }, Format::rate, AT_WAIT_CEILING),
    MEAN("mean", "mean ms", { it.window.measured?.latency?.mean }, Format::ms),
    P50("p50", "p50 ms", { it.window.measured?.latency?.p50 }, Format::ms, quantile = 0.50),
    P90("p90", "p90 ms", { it.window.measured?.latency?.p90 }, Format::ms, quantile = 0.90),
    P99("p99", "p99 ms", { it.window.measured?.latency?.p99 }, Format::ms, quantile = 0.99),
    ERRORS("errors", "errors", { it.window.measured?.errorRate }, { Format.percent(it, 2) }),
    CPU("cpu", "CPU", { it.resources.summary?.cpuShare }, { Format.percent(it) }),

    /** Requests per CPU-second the app used ([Efficiency.perCpuSecond]): what its throughput cost in CPU. */
    PER_CPU_SECOND("per-cpu-second", "req per CPU-s", Efficiency::perCpuSecond, Format::rate),

    /** Requests a second per MiB of the app's peak resident memory ([Efficiency.perMib]). */
    PER_MIB("per-mib", "req/s per MiB", Efficiency::perMib, { v -> v?.let { "%.1f".format(java.util.Locale.ROOT, it) } ?: "–" }),
    CPU_MAX("cpu-max", "CPU, busiest sample", { it.resources.summary?.cpuShareMax }, { Format.percent(it) }),
    STARTUP("startup", "Spring startup s", { it.start.startup?.springStartedSeconds }, { v -> v?.let { "%.2f".format(java.util.Locale.ROOT, it) } ?: "–" }),
    THROTTLED("throttled", "throttled periods", { c ->
        val r = c.resources.summary
        if (r?.throttledPeriods == null || r.periods == null || r.periods == 0L) null else r.throttledPeriods.toDouble() / r.periods
    }, { Format.percent(it) }),
    THROTTLED_MS("throttled-ms", "throttled ms/s", { c ->
        val ms = c.resources.summary?.throttledMs
        val s = c.window.measured?.wallSeconds
        if (ms == null || s == null || s <= 0) null else ms / s
    }, { v -> v?.let { "%.0f".format(java.util.Locale.ROOT, it) } ?: "–" }),
    INVOLUNTARY_CS("involuntary-cs", "involuntary cs/s", { it.resources.summary?.involuntaryCtxPerSecond }, Format::perSecond),
    VOLUNTARY_CS("voluntary-cs", "voluntary cs/s", { it.resources.summary?.voluntaryCtxPerSecond }, Format::perSecond),
    THREADS("threads", "threads", { it.resources.summary?.threadsMax?.toDouble() }, { v -> v?.let { "%.0f".format(java.util.Locale.ROOT, it) } ?: "–" }),
    CEILING("ceiling", "ceiling req/s", { Ceilings.recorded(it)?.requestsPerSecond }, Format::rate),
    EFFICIENCY("efficiency", "of ceiling", { Ceilings.recorded(it)?.efficiency }, { Format.percent(it) }),
    IDLE_MS("idle-ms", "lone request ms", { it.ceiling.idle?.medianMs }, Format::ms),

    /**
     * How steady the app's own throughput was second by second: standard deviation ÷ mean (lower is steadier), from the
     * second second on, as the window's shape is read ([stackbench.runner.probe.WindowFigures.shape]): the first holds
     * the load generator opening its connections (up to 10,000 for an open model), 2-6 % short of the rate at
     * 1,600-2,000 req/s, which alone would be most of a steady server's figure.
     */
    STABILITY("stability", "per-second variation", { c ->
        Statistics.variation(c.resources.summary?.serverPerSecond?.drop(1)?.filterNotNull().orEmpty())
    }, { Format.percent(it, 1) }, Flags.SHAPE_MEASURED),

    /**
     * How much the app's own throughput swung over the warm-up, slice by slice (about a second each): standard
     * deviation ÷ mean of the slices' rates. The warm-up starts on a fresh JVM primed only with `/noop`, so the
     * measured path compiles under the load: with a saturated CPU, the JIT's share of it and the backlog an open
     * model builds and drains show here, as they showed in an article whose run began cold.
     */
    WARMUP_STABILITY("warmup-stability", "warm-up per-second variation", { c ->
        Statistics.variation(c.warmup.record?.slices?.map { it.rate }.orEmpty())
    }, { Format.percent(it, 1) }, Flags.WARMUP_MEASURED);

    /**
     * What takes [cell] out of this figure: its disqualifying flags that the figure's [waiver] leaves, and for a
     * percentile, timeouts that hide the tail beyond it ([TimedOutTail]). Comparisons, claims, tables and the history
     * all count a cell by this.
     */
    fun leftOutBy(cell: CellResult): List<Flag> =
        Flags.instrument(cell, waiver) + listOfNotNull(quantile?.let { q -> cell.window.measured?.let { TimedOutTail.flag(it, q, id) } })

    /** What [cell]'s app did that a steady reading would leave out ([Flags.appState], less this figure's waiver): it counts, flagged. */
    fun appStateOf(cell: CellResult): List<Flag> = Flags.appState(cell, waiver)

    companion object {
        fun of(id: String): Figure? = entries.firstOrNull { it.id == id }
        val ids: List<String> get() = entries.map { it.id }
    }
}
