package stackbench.runner.cell

import stackbench.runner.probe.ServerCount
import stackbench.runner.results.Flags
import stackbench.runner.results.SliceRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.stats.Trend
import stackbench.runner.stats.WindowClassifier
import java.time.Duration

/**
 * Decides when a warm-up may end, from the JVM's own signals read off the app's stats channel in slices of
 * [slice]: the app is steady when
 * - **compilation has gone quiet** ([compilerQuiet]): in each of the last [QUIET_SLICES] slices the JIT compiler threads used at most
 *   [COMPILE_QUIET] of the CPU the app was allotted in the slice, or took only CPU that nothing else wanted (the app,
 *   compiler included, used at most [IDLE_CPU] of it; see [WarmupSlice.compilerQuiet]; not while priming); unknown when they cannot be
 *   read: then throughput alone decides; and in each of the last [CLOCK_QUIET_SLICES] compilations were under way for at
 *   most [COMPILING_QUIET] of the slice's clock (CompilationMXBean; the same exception), which sees a compiler that
 *   busy request threads starve of the CPU: its CPU is small while its work is not done;
 * - **throughput shows no trend**: the changepoint analysis of every slice so far ([WindowClassifier]) puts the last
 *   change of level at least [FLAT_SLICES] slices back, and those last slices have no significant slope ([Trend.flat])
 *   and scatter at most [MAX_SCATTER].
 *
 * One CPU's JIT warms in plateaus: two agreeing slices can be a plateau, not the end. The compilation signal
 * sees the compiler still at work on a plateau; the changepoint rule sees a plateau left behind.
 *
 * A closed load of [connections] whose round trips are almost all waiting (a sleep, a slow downstream) is steady on
 * compilation alone ([WarmupEnd.LIGHT], [lightWork]): its throughput is set by the waits, not by the code the JIT is
 * compiling, and its slices may alternate between a wave of answers and none.
 *
 * A cell's warm-up may also end on what the app does ([WarmupEnd.FLAT], [SteadyThroughput]): its throughput settled
 * over at least the last 12 slices, with the JIT's share of the CPU small and not falling, whether or not the
 * compilers have gone quiet slice by slice; and one that reached its cap so is steady at the cap ([WarmupEnd.FLAT_AT_CAP]).
 */
class WarmupWatch(
    private val read: () -> ServerCount?,
    private val slice: Duration,
    /** The JIT compiler threads' CPU so far, ms ([stackbench.runner.probe.CompilerThreads]); null when unknown. */
    private val compilerCpuMs: () -> Double? = { null },
    private val allottedCpus: Double = 1.0,
    /**
     * Whether the last slices must also scatter little ([MAX_SCATTER]). Priming does not ask it: it drives `/noop` at a
     * few connections, where the load generator's own timing scatters the rate while the app has long settled.
     */
    private val scatterMatters: Boolean = true,
    /**
     * Whether a compiler busy on otherwise idle CPU counts as quiet ([WarmupSlice.compilerQuiet]). Priming does not let
     * it: priming is there for the compiler to finish the exchange's code before any cell measures it.
     */
    private val compilerOnIdleCpuQuiet: Boolean = true,
    /** A closed load's connections, for [lightWork]; null (an open load, priming) leaves throughput to decide. */
    private val connections: Int? = null,
    /** A closed load's Little's-law ceiling, req/s, for [atCeiling]; null where none applies (an open load, priming). */
    private val ceiling: Double? = null,
    /**
     * Whether the app's throughput may end the warm-up with the JIT still at work, so long as its share is small and not
     * falling ([SteadyThroughput]: [WarmupEnd.FLAT], [WarmupEnd.FLAT_AT_CAP]). Priming and `compile-first` do not let
     * it: they are there for the compiler to finish.
     */
    private val throughputDecides: Boolean = false,
) {
    private var first: ServerCount? = null
    private var sliceStart: ServerCount? = null
    private var sliceStartCompiler: Double? = null
    val slices = mutableListOf<WarmupSlice>()
    /** Decided once per finished slice: nothing it rests on changes between slices. */
    private var steadyNow = false
    private var endNow = WarmupEnd.CAP

    /** Takes a reading; true once the app is steady. The compiler threads are read only at a slice's edges. */
    fun poll(): Boolean {
        val now = read() ?: return steadyNow
        val start = sliceStart
        if (start == null) {
            first = now
            sliceStart = now
            sliceStartCompiler = compilerCpuMs()
            return false
        }
        val elapsedMs = now.epochMs - start.epochMs
        if (elapsedMs >= slice.toMillis()) {
            val compiler = compilerCpuMs()
            slices += WarmupSlice(
                endSeconds = (now.epochMs - first!!.epochMs) / 1000.0,
                seconds = elapsedMs / 1000.0,
                completed = now.completed - start.completed,
                compileMs = sliceStartCompiler?.let { a -> compiler?.let { it - a } },
                allottedCpus = allottedCpus,
                processCpuMs = start.processCpuNanos?.let { a -> now.processCpuNanos?.let { (it - a) / 1e6 } },
                compilingMs = start.compilationMs?.let { a -> now.compilationMs?.let { (it - a).toDouble() } },
            )
            sliceStart = now
            sliceStartCompiler = compiler
            endNow = when {
                steady(slices, scatterMatters, compilerOnIdleCpuQuiet) -> WarmupEnd.STEADY
                connections != null && lightWork(slices, connections, compilerOnIdleCpuQuiet) -> WarmupEnd.LIGHT
                ceiling != null && atCeiling(slices, ceiling) -> WarmupEnd.CEILING
                throughputDecides && SteadyThroughput.judge(records(), clockMatters = true).steady -> WarmupEnd.FLAT
                else -> WarmupEnd.CAP
            }
            steadyNow = endNow != WarmupEnd.CAP
        }
        return steadyNow
    }

    fun steady(): Boolean = steadyNow

    /**
     * [poll] for a driver run [elapsedNanos] into its [length], but no reading in its last [TAIL_NANOS]: the driver may
     * already have stopped sending, and the slice would be partial.
     */
    fun pollUntilEnding(elapsedNanos: Long, length: Duration): Boolean =
        if (elapsedNanos < length.toNanos() - TAIL_NANOS) poll() else steadyNow

    /**
     * Seconds from the first reading to where the last level began: the time to steady state; null if none shows. A
     * warm-up that ended on light work counts from the earliest slice after which the rate shows no trend.
     */
    fun steadyFromSeconds(): Double? = steadyFromSeconds(endNow)

    private fun steadyFromSeconds(end: WarmupEnd): Double? = when (end) {
        WarmupEnd.LIGHT -> slices[untrendedFrom(slices.map { it.rate })].let { it.endSeconds - it.seconds }
        // where the throughput's judged stretch began: its last level, or its last 12 slices when that began later
        WarmupEnd.FLAT, WarmupEnd.FLAT_AT_CAP -> SteadyThroughput.judge(records(), clockMatters = end == WarmupEnd.FLAT).settling?.fromSeconds
        else -> steadyFromSeconds(slices)
    }

    /**
     * What the warm-up showed, for the record: [seconds] it ran, why it ended, its time to steady state, its slices. A
     * warm-up that reached its cap is judged once more on its throughput ([WarmupEnd.FLAT_AT_CAP]).
     */
    fun record(seconds: Double): WarmupRecord {
        val end = if (endNow == WarmupEnd.CAP && throughputDecides && SteadyThroughput.judge(records(), clockMatters = false).steady) WarmupEnd.FLAT_AT_CAP else endNow
        val steadyAfter = steadyFromSeconds(end)
        return WarmupRecord(
            seconds = seconds,
            endedBy = end.id,
            steadyAfterSeconds = steadyAfter,
            steadyAtEpochMs = steadyAfter?.let { s -> first?.let { it.epochMs + (s * 1000).toLong() } },
            slices = records(),
        )
    }

    private fun records(): List<SliceRecord> = slices.map { SliceRecord(it.endSeconds, it.rate, it.compileShare, it.cpuShare, it.compilingShare) }

    companion object {
        /** The end of a driver's run in which the watch takes no reading. */
        const val TAIL_NANOS = 500_000_000L

        /** At most this share of a slice's CPU in the JIT compilers counts as quiet. */
        const val COMPILE_QUIET = 0.01
        /**
         * At most this share of a slice's clock with a compilation under way counts as quiet ([WarmupSlice.compilationsQuiet]),
         * in each of the last [CLOCK_QUIET_SLICES]. Busy request threads starve the compiler threads of the CPU: Tomcat's
         * `/noop` at 50 connections on one CPU gave them 1-2 % of it, about [COMPILE_QUIET], while compilations held
         * 7-17 % of its clock over its first minute, in bursts of single seconds up to 52 % a few seconds apart, and the
         * rate stepped up after a burst (21,200 to 27,300 req/s); after that, 0-5 % with a rare second of 8-17 %.
         */
        const val COMPILING_QUIET = 0.05
        /** Slices whose compilations must all be quiet: the bursts of a starved compiler came up to 5 s apart. */
        const val CLOCK_QUIET_SLICES = 10

        /**
         * Compilation quiet at the end of [slices]: the compiler threads' CPU in the last [QUIET_SLICES], and their
         * compilations' clock in the last [CLOCK_QUIET_SLICES] (every slice so far when fewer: a warm-up whose compiler
         * was quiet from its start is not held longer; one whose compiler burst in it waits out the whole span).
         */
        fun compilerQuiet(slices: List<WarmupSlice>, onIdleCpu: Boolean = true): Boolean {
            if (!slices.takeLast(QUIET_SLICES).all { it.compilerQuiet(onIdleCpu) }) return false
            return slices.takeLast(CLOCK_QUIET_SLICES).all { it.compilationsQuiet(onIdleCpu) }
        }
        /**
         * An app that used at most this share of its allotted CPU, compiler included, left the CPU idle half the time:
         * its compiler ran on CPU no request was waiting for, and does not hold the warm-up back.
         */
        const val IDLE_CPU = Flags.IDLE_CPU
        const val QUIET_SLICES = 3
        /**
         * Slices since the last change of level, and without trend, before the app counts as steady. A closed load whose
         * connections all wait alike completes in waves: each connection finishes a whole number of requests a slice,
         * so a rate that climbs smoothly reads as a staircase of equal slices. The warm-up truth's climb (a 300 ms extra
         * falling to 0 over 15 s, 100 connections) showed steps of 2-4 slices, and with 4 one CI run ended its warm-up on
         * a step 10.6 s early; 6 outlast the steps.
         */
        const val FLAT_SLICES = 6
        /** A slope smaller than this share of the mean over the last slices is no trend that matters. */
        const val TREND_TOLERANCE = 0.02
        /**
         * The last slices may scatter at most this much (standard deviation ÷ mean): a short noisy series shows no
         * significant slope only because it shows nothing; it is not steady.
         */
        const val MAX_SCATTER = 0.10

        fun steady(slices: List<WarmupSlice>, scatterMatters: Boolean = true, compilerOnIdleCpuQuiet: Boolean = true): Boolean {
            if (slices.size < FLAT_SLICES) return false
            if (!compilerQuiet(slices, compilerOnIdleCpuQuiet)) return false
            val rates = slices.map { it.rate }
            val recent = rates.takeLast(FLAT_SLICES)
            if (recent.average() <= 0 || scatterMatters && scatter(recent) > MAX_SCATTER) return false
            val from = levelStart(rates) ?: return false
            return rates.size - from >= FLAT_SLICES && Trend.flat(recent, TREND_TOLERANCE)
        }

        /**
         * The share of a round trip that the app may spend on CPU, compiler and GC included, for a closed load to be
         * steady on compilation alone ([WarmupEnd.LIGHT]). A JIT that halved that CPU would move a round trip by at
         * most half of it; behind a pool smaller than the connections the share of a thread's service time is larger,
         * by the connections over the pool (3× at 30 connections on 10 threads): still a few per cent at most.
         */
        const val LIGHT_WORK = 0.01
        /**
         * Slices over which light work must show no trend: twice [FLAT_SLICES]. A closed load whose connections wait
         * alike completes in steps of whole requests per connection; the warm-up truth's falling wait read 193, 290,
         * 290, 289, 380, 289 req/s, a staircase whose slope over 6 slices was not significant. Over 12 the steps of a
         * climb add up to a slope the interval cannot hide, while waves that alternate still average out.
         */
        const val LIGHT_SLICES = 2 * FLAT_SLICES

        /**
         * Whether, over the last [LIGHT_SLICES] slices, the app's CPU per answer was at most [LIGHT_WORK] of a round trip
         * ([connections] ÷ the slices' rate, Little's law for a closed load), the compiler was quiet in the last
         * [QUIET_SLICES] ([WarmupSlice.compilerQuiet]), the app used at most [IDLE_CPU] of its allotted CPU (saturated,
         * its round trips are a queue for the CPU: WebFlux's `/noop` at 400 connections spent 0.08 ms of CPU per answer
         * against a 33 ms round trip, 0.25 %, and ended its warm-up on light work while still compiling), and the
         * rate shows no significant trend ([Trend.flat]: waves
         * that alternate do not move the slope's interval off 0; a wait that still shrinks does, as the warm-up known
         * truth's falling extra cost showed when a CI run ended its warm-up 15 s early on light work alone). False when
         * a slice's CPU is unknown or nothing was answered.
         */
        fun lightWork(slices: List<WarmupSlice>, connections: Int, compilerOnIdleCpuQuiet: Boolean = true): Boolean {
            if (slices.size < LIGHT_SLICES || connections <= 0) return false
            if (!compilerQuiet(slices, compilerOnIdleCpuQuiet)) return false
            val recent = slices.takeLast(LIGHT_SLICES)
            if (!Trend.flat(recent.map { it.rate }, TREND_TOLERANCE)) return false
            val answered = recent.sumOf { it.completed }
            if (answered <= 0 || recent.any { it.processCpuMs == null }) return false
            // a saturated CPU makes the round trip a queue for the CPU, which shrinks with every answer's CPU: only
            // an app that leaves half its CPU idle waits on something else
            if (recent.sumOf { it.processCpuMs!! } > IDLE_CPU * recent.sumOf { it.seconds * 1000 * it.allottedCpus }) return false
            val roundTripMs = connections * recent.sumOf { it.seconds } * 1000 / answered
            val cpuPerAnswerMs = recent.sumOf { it.processCpuMs!! } / answered
            return cpuPerAnswerMs <= LIGHT_WORK * roundTripMs
        }

        /**
         * Whether the last [FLAT_SLICES] slices ran at [ceiling] on average, within [Flags.CEILING_SLACK]
         * below it, and show no significant trend ([Trend.flat]): a closed load at its Little's-law ceiling, whose rate no
         * compilation can raise ([WarmupEnd.CEILING]). The average, not each slice: a closed load whose connections wait
         * alike completes in waves.
         */
        fun atCeiling(slices: List<WarmupSlice>, ceiling: Double): Boolean {
            if (slices.size < FLAT_SLICES || ceiling <= 0) return false
            val recent = slices.takeLast(FLAT_SLICES).map { it.rate }
            return recent.average() >= (1 - Flags.CEILING_SLACK) * ceiling && Trend.flat(recent, TREND_TOLERANCE)
        }

        /**
         * The earliest slice from which the rest of [rates] shows no trend ([Trend.flat]), at most [LIGHT_SLICES] from
         * the end: where a light-work warm-up's steady state began. A stretch that scatters no more than [MAX_SCATTER]
         * (no waves) then loses its leading slices more than [LEVEL_WITHIN] from its median, the tail of a ramp that an
         * insignificant slope let in; waves keep their whole stretch.
         */
        fun untrendedFrom(rates: List<Double>): Int {
            val last = maxOf(0, rates.size - LIGHT_SLICES)
            var from = (0..last).firstOrNull { Trend.flat(rates.subList(it, rates.size), TREND_TOLERANCE) } ?: last
            val stretch = rates.subList(from, rates.size)
            if (stretch.average() > 0 && scatter(stretch) <= MAX_SCATTER) {
                val level = stackbench.runner.stats.Statistics.median(stretch)
                while (from < last && kotlin.math.abs(rates[from] - level) > LEVEL_WITHIN * level) from++
            }
            return from
        }

        fun steadyFromSeconds(slices: List<WarmupSlice>): Double? {
            if (slices.isEmpty()) return null
            val from = levelStart(slices.map { it.rate }) ?: return null
            return slices[from].endSeconds - slices[from].seconds
        }

        /** A leading slice of the last level further than this from the level's median is still on the way to it. */
        const val LEVEL_WITHIN = 0.05

        private fun levelStart(rates: List<Double>): Int? = WindowClassifier.levelStart(rates, LEVEL_WITHIN)

        private fun scatter(xs: List<Double>): Double {
            val mean = xs.average()
            return kotlin.math.sqrt(xs.sumOf { (it - mean) * (it - mean) } / (xs.size - 1)) / mean
        }
    }
}
