package stackbench.runner.results

import stackbench.runner.stats.WindowShape
import stackbench.runner.suite.Defaults.MIN_ROUND_TRIPS
import stackbench.runner.suite.Defaults.WINDOW_PRECISION
import kotlin.math.roundToInt

/** The flags a finished cell carries beside the figures they affect. Pure: computed from what was measured. */
object Flags {
    /** Over this share of its CPUs the load generator, not the app, may be the limit. */
    const val CLIENT_BOUND_SHARE = 0.90

    /** Throttled in more than this share of the quota periods: the quota, not the work, shaped the figures. (A few throttled periods happen even well under the quota: CFS hands out runtime in slices.) */
    const val THROTTLED_SHARE = 0.05

    /**
     * The JIT compiler threads taking more than this share of the CPU the app was allotted over the measured window
     * (their own CPU time, as the warm-up's quiet rule reads it, which allows 1 % a slice), while the app used over
     * [IDLE_CPU] of it: the code the window measured changed under it, on CPU the requests wanted.
     */
    const val COMPILING_SHARE = 0.02

    /** An app that used at most this share of its allotted CPU left its compiler CPU that no request wanted (the warm-up's rule too). */
    const val IDLE_CPU = 0.5

    /** The flag of every cell of a system the lab did not start (a url: app): see [notIsolated]. */
    const val NOT_ISOLATED = "not-isolated"

    /** How a cell of a system the lab did not start records its isolation (`profile.isolation`): none at all. */
    const val NO_ISOLATION = "none"

    /**
     * A cell of a system the lab did not start ([url]: a url: app): not placed on CPUs, limited, isolated or sampled;
     * its latency includes whatever lies between the load generator and it. Not disqualifying in itself: two such
     * cells compare as any two, but a suite comparison never sets one against an isolated cell
     * ([stackbench.runner.decide.SuiteDecisions]).
     */
    fun notIsolated(url: java.net.URI?): Flag = Flag(NOT_ISOLATED, "a service the lab did not start${url?.let { " ($it)" } ?: ""}: not placed on " +
        "CPUs, limited, isolated or sampled (its CPU, memory and JVM figures are unknown), and its latency includes whatever lies between the " +
        "load generator and it", "other")

    /**
     * The version of the rules that decide which windows count: [DISQUALIFYING] and the waivers. Every decision records
     * the version it was made under (`decisions[].rules`), and docs/methodology.md (*Which windows count*) lists what
     * each version changed, so a verdict decided under other rules is never mistaken for one of these.
     */
    const val RULES = "2026-12-05.1"

    /** A measurement above its ceiling by more than this share is a defect of the ceiling, not a finding. */
    const val CEILING_SLACK = 0.05

    /**
     * Flags that take a cell out of a comparison or a claim: its figures may not be what a re-run would give (a window
     * still warming or slowing, or with no steady state; too few round trips; a load generator at its limit; the OOM
     * killer; a warm-up that hit its cap; a defective ceiling; under half the requests answered; a slow host; a JIT still
     * compiling in the window).
     */
    val DISQUALIFYING = setOf("warming", "slowing", "no-steady-state", "few-round-trips", "client-bound", "oom", "unsteady", "ceiling-defect", "unanswered", "host-slow", "compiling")

    /**
     * The flags that describe the app itself: still warming, slowing, with no steady state, a JIT still at work. They say
     * what the app did in the window, not that the measurement failed: a window carrying one counts, and every decision
     * is read again without such windows ([stackbench.runner.decide.Engine]); it decides only where that reading does not
     * decide otherwise. Since rules 2026-12-05.1; before, they took the window out.
     */
    val APP_STATE = setOf("warming", "slowing", "no-steady-state", "unsteady", "compiling")

    /** The flags that say the instrument failed (too few round trips, the load generator at its limit, the OOM killer, a defective ceiling, unanswered requests, a slow host): they take the window out. */
    val INSTRUMENT = DISQUALIFYING - APP_STATE

    /**
     * What a JIT still warming shows: a window not yet flat, a compiler at work. A cell measured cold on purpose
     * (`warmup: 0`, a fresh JVM as a container started for the test) shows them by design; for it they describe the
     * condition measured, and do not take it out.
     */
    val WARMING = setOf("warming", "no-steady-state", "compiling")

    /**
     * What a counted run shows by design, and what does not bear on its figure. A fixed number of requests (`hey -n 200
     * -c 30`) gives each connection only a few round trips, and no window is cut: the run goes from the first request
     * sent to the last answer, and its figure is that count over that time (the published measure, the last wave's
     * drain included), whatever the rate did inside it. A window's shape and round trips tell whether a timed window
     * sampled a steady rate; a counted run claims no steady rate, and its repetitions say whether its figure repeats.
     */
    val COUNTED = setOf("few-round-trips", "warming", "slowing", "no-steady-state")

    /**
     * The flags of [cell] that take it out of a comparison or a claim: [DISQUALIFYING], less [WARMING] for a cell
     * measured cold on purpose, [COUNTED] for a counted run, and what the figure compared does not depend on ([figure]).
     */
    fun disqualifying(cell: CellResult, figure: FigureWaiver? = null): List<Flag> =
        cell.flags.filter { it.code in DISQUALIFYING && waiver(cell, it, figure) == null }

    /** The flags of [disqualifying] that say the instrument failed ([INSTRUMENT]): they take [cell] out of a decision. */
    fun instrument(cell: CellResult, figure: FigureWaiver? = null): List<Flag> = disqualifying(cell, figure).filter { it.code in INSTRUMENT }

    /** The flags of [disqualifying] that describe the app itself ([APP_STATE]): [cell] counts, and decisions are read again without it. */
    fun appState(cell: CellResult, figure: FigureWaiver? = null): List<Flag> = disqualifying(cell, figure).filter { it.code in APP_STATE }

    /** The flags of [DISQUALIFYING] that [cell]'s condition (or the figure read) waives, each with why, for the text that counts the cell in. */
    fun waived(cell: CellResult, figure: FigureWaiver? = null): List<Pair<Flag, String>> =
        cell.flags.filter { it.code in DISQUALIFYING }.mapNotNull { f -> waiver(cell, f, figure)?.let { f to it } }

    /** The codes [shape] gives: every window shape but flat. */
    val SHAPES = WindowShape.entries.filter { it != WindowShape.FLAT }.map { it.id }.toSet()

    /** The disqualifying flags ([codes]) that a figure does not depend on, and [why], for the text that counts a cell in. */
    data class FigureWaiver(
        val codes: Set<String>,
        val why: String,
        /** Whether the waiver holds for a cell: always, or on a condition of the cell's own record (e.g. its ceiling). */
        val holds: (CellResult) -> Boolean = { true },
    )

    /** The flags that say the JIT was still at work in or before the window. */
    val JIT = setOf("compiling", "unsteady")

    /**
     * The per-second variation measures how the window's throughput moved. The shape flags protect a figure that
     * assumes one steady level (a mean rate, a percentile) from a window cut across a change; the variation is that
     * change, so a server whose throughput swings is the answer it measures, not a defect of it. What says the JIT was
     * still at work (`compiling`, `unsteady`) is still the app's state: the figure is read again without such windows.
     */
    val SHAPE_MEASURED = FigureWaiver(
        SHAPES, "windows whose shape the per-second variation measures (its swings are the figure; " +
            "the JIT's flags, compiling and unsteady, are still the app's state)",
    )

    /**
     * A figure of the warm-up itself (its slices, before the window) depends on nothing the window's flags describe:
     * its shape, round trips, the JIT in it, or whether the warm-up reached its cap.
     */
    val WARMUP_MEASURED = FigureWaiver(
        SHAPES + setOf("compiling", "unsteady", "few-round-trips"),
        "figures of the warm-up, before the window that these flags describe",
    )

    private fun waiver(cell: CellResult, flag: Flag, figure: FigureWaiver?): String? = when {
        cell.load.warmupMs == 0L && flag.code in WARMING -> "cells measured cold on purpose"
        figure != null && flag.code in figure.codes && figure.holds(cell) -> figure.why
        cell.load.requests != null && flag.code in COUNTED ->
            "counted runs of ${cell.load.requests} requests (each figure is the count over the time from the first sent to the last answered, " +
                "as published, with no window to cut or to be steady; the repetitions say whether it repeats)"
        else -> null
    }

    /**
     * The flag of a window in which virtual threads pinned their carrier (the `pinned` probe's record): not
     * disqualifying (the figure is what the app did), but it says why a virtual-thread configuration may lag.
     */
    fun pinned(probe: ProbeRecord?): Flag? {
        val events = probe?.figures?.get("events")?.toInt() ?: return null
        if (events <= 0) return null
        val top = probe.details?.get("frames")?.firstOrNull()?.get("frame")?.asString()
        val reason = probe.details?.get("reasons")?.properties()?.maxByOrNull { it.value.asInt() }?.key
        return Flag("pinned", "virtual threads pinned their carrier $events times in the window (%.0f ms in all, the longest %.0f ms)"
            .format(probe.figures["totalMs"] ?: 0.0, probe.figures["maxMs"] ?: 0.0) +
            (top?.let { ", most at $it" } ?: "") + (reason?.let { " ($it)" } ?: "") +
            ": a pinned virtual thread holds its carrier while it waits, and the others wait for a carrier", "throughput")
    }

    /** The flag of a window that was not flat: its shape, with the classifier's reason. */
    fun shape(window: WindowRecord): Flag? =
        if (window.shape == WindowShape.FLAT.id) null
        else Flag(window.shape, "the app's own per-second throughput in the window was not flat (${window.shape}): ${window.reason}", "throughput")

    fun of(
        measured: LoadResult?, resources: ResourceSummary?, sharesCpus: Boolean, isolation: String,
        warmup: WarmupRecord? = null, window: WindowRecord? = null, ceiling: Ceiling? = null, pace: PaceReading? = null,
        jvm: JvmWindow? = null, windowMs: Long? = null, allottedCpus: Double = 1.0, counted: Int? = null,
    ): List<Flag> = buildList {
        if (measured != null) {
            if (measured.errorCount > 0) {
                val kinds = measured.errors.entries.joinToString(", ") { "${it.value} ${it.key}" }
                add(Flag("errors", "${measured.errorCount} failed requests (${pct(measured.errorRate, 2)}): $kinds", "throughput"))
            }
            Unanswered.flag(measured)?.let(::add)
            if (!measured.latencyCorrected) {
                add(Flag("closed-model", if (measured.model != "open" && measured.dropped == 0L) "closed-model latency: a request is timed from when it was sent, and none is sent while " +
                    "every connection waits, so stalls are under-counted (coordinated omission)"
                    else "uncorrected latency: a request is timed from when it was sent; when every user is busy, ${measured.driver} drops the " +
                        "iterations due (${measured.dropped} dropped) rather than queueing them, so stalls show as dropped iterations, not latency", "latency"))
            }
        }
        if (resources != null) {
            val driver = resources.driverCpuShare
            if (driver != null && driver > CLIENT_BOUND_SHARE) {
                add(Flag("client-bound", "the load generator used ${pct(driver)} of its CPUs: it may have been the limit", "throughput"))
            }
            val periods = resources.periods
            val throttled = resources.throttledPeriods
            if (periods != null && throttled != null && periods > 0 && throttled.toDouble() / periods > THROTTLED_SHARE) {
                add(Flag("throttled", "the CPU quota throttled the app in $throttled of $periods periods " +
                    "(${"%.0f".format(resources.throttledMs ?: 0.0)} ms in all)", "throughput"))
            }
            if ((resources.oomKills ?: 0) > 0) add(Flag("oom", "the memory limit killed a process ${resources.oomKills} time(s)", "throughput"))
        }
        if (warmup != null && warmup.endedBy == "cap") {
            val last = warmup.slices.lastOrNull()
            add(Flag("unsteady", "the warm-up reached its cap (${"%.0f".format(warmup.seconds)} s) before the app settled" +
                (last?.let { l -> ": its last slice ran at ${l.rate.roundToInt()} req/s" + (l.compileShare?.let { ", the JIT compilers took ${pct(it, 1)} of its CPU" } ?: "") } ?: "") +
                "; the measured window may include warm-up", "throughput"))
        }
        if (window != null) {
            shape(window)?.let(::add)
            val trips = window.roundTripsPerConnection
            val waves = window.waves
            if (trips != null && trips < MIN_ROUND_TRIPS && (waves == null || waves < MIN_ROUND_TRIPS)) {
                add(Flag("few-round-trips", "each connection made only ${"%.1f".format(trips)} round trips in the window" +
                    (waves?.let { ", ${"%.1f".format(it)} waves of its binding concurrency limit" } ?: "") + " (at least $MIN_ROUND_TRIPS count): " +
                    if (counted != null) "a counted run of $counted requests, timed from the first sent to the last answered, so no window cuts its waves " +
                        "of completions; its figure includes the last wave's drain, as the published count did"
                    else "completions come in waves and the count depends on where the window cuts them", "throughput"))
            }
            val precision = window.precision
            if (precision != null && precision > WINDOW_PRECISION) {
                add(Flag("imprecise", "the window's own per-second throughput pins its mean only within ±${pct(precision, 1)} (95 %; its seconds " +
                    "move together over ${"%.1f".format(window.autocorrelationSeconds ?: 1.0)} s): a window ${"%.0f".format((precision / WINDOW_PRECISION).let { it * it })}× " +
                    "as long would pin it within ±${pct(WINDOW_PRECISION)}", "throughput"))
            }
        }
        val efficiency = ceiling?.efficiency
        if (efficiency != null && efficiency > 1 + CEILING_SLACK) {
            add(Flag("ceiling-defect", "measured ${pct(efficiency)} of the ${ceiling.law} ceiling: a ceiling cannot be beaten, so this one " +
                "(${ceiling.explanation}) is wrong and is not a finding", "ceiling"))
        }
        // as in the warm-up's quiet rule: a compiler on CPU that the app left idle (it used at most half of it,
        // compiler included) took nothing from the requests
        val compiling = jvm?.compilerCpuMs
        val busy = resources?.cpuShare?.let { it > IDLE_CPU } ?: true
        if (compiling != null && busy && windowMs != null && windowMs > 0 && compiling > COMPILING_SHARE * windowMs * allottedCpus) {
            add(Flag("compiling", "the JIT compiler threads used %.0f ms of CPU in the %.1f s window (%s of the CPU allotted): the code the window measured changed under it"
                .format(compiling, windowMs / 1000.0, pct(compiling / (windowMs * allottedCpus), 1)), "throughput"))
        }
        // the floor decides (HostPace): the median also reads the lab's own processes waking on the canary's CPU
        val floor = pace?.floorRelative
        val stolen = listOfNotNull(pace?.appCpuSteal?.let { "the app's" to it }, pace?.driverCpuSteal?.let { "the load generator's" to it })
            .filter { it.second > HostPace.STOLEN }
        if (floor != null && floor > 1 + HostPace.SLOW) {
            add(Flag("host-slow", "the machine ran slow in this window: even the fastest tenth of a fixed piece of arithmetic took ${pct(floor - 1)} more CPU " +
                "time than at the run's calmest${pace.relative?.let { " (its median ${pct(it - 1)} more)" } ?: ""}, so the host, not the app, may have set the figures", "throughput"))
        } else if (stolen.isNotEmpty()) {
            add(Flag("host-slow", "the hypervisor took " + stolen.joinToString(" and ") { (whose, share) -> "${pct(share, 1)} of $whose CPU time" } +
                " in this window (steal), so the host, not the app, may have set the figures", "throughput"))
        }
        if (sharesCpus) add(Flag("shared-cpus", "the app shared CPUs with the load generator (no CPU set)", "throughput"))
        if (isolation == "taskset") add(Flag("no-cgroup", "no cgroup: CPUs pinned with taskset, no quota and no memory limit", "other"))
    }

    private fun pct(x: Double, decimals: Int = 0): String = if (decimals == 0) "${(x * 100).roundToInt()} %" else "%.${decimals}f %%".format(x * 100)
}
