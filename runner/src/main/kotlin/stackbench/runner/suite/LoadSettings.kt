package stackbench.runner.suite

import stackbench.runner.catalog.DriverSpec
import java.time.Duration

/** A suite's `load:`: its model, and the settings every level of it shares. */
data class LoadSpec(val model: LoadModel, val settings: LoadSettings)

/**
 * The settings of a load that do not depend on its model, defined once: the suite reads them ([LoadSpec]), each
 * planned level carries them, scaled (stackbench.runner.plan.LoadLevel), and a cell's record writes them
 * (stackbench.runner.results.LoadRecord).
 */
data class LoadSettings(
    val driver: DriverSpec,
    val length: LoadLength,
    val warmup: Duration,
    val timeout: Duration,
    /** Load-generator threads (wrk -t); null = the driver's CPUs. */
    val threads: Int?,
    /**
     * When longer than [warmup]: after the warm-up, keep warming in slices of [Defaults.WARMUP_SLICE] until the app
     * is steady (stackbench.runner.cell.WarmupWatch), or this much warm-up in all; equal to [warmup] for a fixed warm-up.
     */
    val warmupMax: Duration = warmup,
    /** Load-generator instances one load is split over (`instances:`, k6's execution segments); 1: one. */
    val instances: Int = 1,
    /**
     * `duration-max`: a closed-model window may grow past its duration, up to this, to hold
     * [Defaults.MIN_ROUND_TRIPS] round trips a connection at the warm-up's rate (stackbench.runner.plan.WindowRule);
     * null: never past the suite's duration.
     */
    val durationMax: Duration? = null,
    /**
     * `prime`: whether a new app process is primed on `/noop` until steady before its first cell's warm-up
     * (stackbench.runner.cell.Priming). Off for a check that needs no steady JIT (the lab's own functional tests).
     */
    val prime: Boolean = true,
    /** `prime-max`: the longest each stage of priming may run ([Defaults.PRIME_MAX] for the compile stage, the saturation stage never past its own cap). */
    val primeMax: Duration = Defaults.PRIME_MAX,
    /**
     * `compile-first`: before the warm-up, the cell's own request at one connection until the JIT is quiet, at most
     * this long (stackbench.runner.cell.WarmUpStep); null: none. On one CPU, busy request threads starve the JIT's
     * compiler threads, and a CPU-bound cell's warm-up can reach its cap still compiling.
     */
    val compileFirst: Duration? = null,
    /**
     * `warmup-reconnect`: once the warm-up is steady, its connections close and new ones carry the load until it is
     * steady again (at least `warmup`, at most `warmup-max`; stackbench.runner.cell.WarmUpStep), so that the window's
     * new connections meet more of the code that closes and opens them compiled (docs/suite-format.md).
     */
    val warmupReconnect: Boolean = false,
)
