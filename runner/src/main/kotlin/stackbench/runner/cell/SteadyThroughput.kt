package stackbench.runner.cell

import stackbench.runner.results.Flags
import stackbench.runner.results.SliceRecord
import stackbench.runner.stats.SettlingClass
import stackbench.runner.stats.SettlingClassifier
import stackbench.runner.stats.SettlingKind
import stackbench.runner.stats.Trend

/**
 * A warm-up's steady state judged on what the app does: its throughput [SettlingKind.SETTLED] ([SettlingClassifier]:
 * from where its last level began, at least the last 12 slices, a drift shown within ±10 % a minute), with the JIT's
 * share of the CPU small and not falling over those slices ([jitSmall]), is steady, whether or not the compilers have
 * gone quiet slice by slice as [WarmupWatch.compilerQuiet] asks.
 *
 * While the warm-up may still run ([clockMatters]), the compilations' clock must be small too ([CLOCK_SMALL]): a
 * compiler that busy request threads starve of the CPU takes little CPU while its work is not done, and Tomcat's rate
 * stepped up 15 % when such a compiler finished (docs/methodology.md, *A starved compiler*). At the cap there is no
 * more time to give it: the throughput and the JIT's CPU decide, and a flat series is steady at the cap, not
 * `unsteady`. Pure.
 */
object SteadyThroughput {
    /**
     * The JIT compiler threads' mean share of the CPU allotted, over the slices judged, at most which it is small: the
     * share over which a measured window is flagged `compiling` ([Flags.COMPILING_SHARE]).
     */
    const val JIT_SMALL = Flags.COMPILING_SHARE

    /**
     * A JIT share falls when its least-squares slope over the slices judged is below 0 by its whole 95 % interval and
     * adds up to more than this share of the CPU over them: a compiler still winding down, as [WarmupWatch.COMPILE_QUIET]
     * allows a slice.
     */
    const val JIT_FALL = WarmupWatch.COMPILE_QUIET

    /** The compilations' mean share of the slices' clock, at most which they are small: as [WarmupWatch.COMPILING_QUIET] allows a slice. */
    const val CLOCK_SMALL = WarmupWatch.COMPILING_QUIET

    /** Whether [slices] are steady, their throughput's class, and why, in words. */
    data class Judgement(val steady: Boolean, val settling: SettlingClass?, val why: String)

    fun judge(slices: List<SliceRecord>, clockMatters: Boolean): Judgement {
        val settling = SettlingClassifier.classify(slices.map { it.endSeconds }, slices.map { it.rate })
            ?: return Judgement(false, null, "${slices.size} slices: too few to show a level (${SettlingClassifier.MIN_POINTS})")
        if (settling.kind != SettlingKind.SETTLED) return Judgement(false, settling, settling.text)
        val judged = slices.subList(settling.from, slices.size)
        jitSmall(judged)?.let { return Judgement(false, settling, "${settling.text}; but $it") }
        if (clockMatters) clockSmall(judged)?.let { return Judgement(false, settling, "${settling.text}; but $it") }
        return Judgement(true, settling, settling.text)
    }

    /**
     * Null when the JIT's CPU over [slices] is small and not falling, or unknown in any of them (then the throughput
     * decides, as in the warm-up's quiet rule), or the app left over [Flags.IDLE_CPU] of its CPU idle (its compiler ran
     * on CPU no request wanted); else why not.
     */
    fun jitSmall(slices: List<SliceRecord>): String? {
        val shares = slices.map { it.compileShare ?: return null }
        if (idle(slices)) return null
        val mean = shares.average()
        if (mean > JIT_SMALL) return "the JIT compilers took %.1f %% of the CPU on average (over %.0f %%)".format(java.util.Locale.ROOT, mean * 100, JIT_SMALL * 100)
        val line = Trend.slope(shares, slices.map { it.endSeconds })
        val fall = -line.perStep * (slices.last().endSeconds - slices.first().endSeconds)
        if (line.high < 0 && fall > JIT_FALL) return "the JIT compilers' share of the CPU fell by %.1f points over them".format(java.util.Locale.ROOT, fall * 100)
        return null
    }

    /** Null when the compilations' clock over [slices] is small or unknown in any of them, or the app left its CPU idle; else why not. */
    private fun clockSmall(slices: List<SliceRecord>): String? {
        val shares = slices.map { it.compilingShare ?: return null }
        if (idle(slices)) return null
        val mean = shares.average()
        return if (mean > CLOCK_SMALL) "compilations were under way %.0f %% of the clock on average (over %.0f %%)".format(java.util.Locale.ROOT, mean * 100, CLOCK_SMALL * 100) else null
    }

    private fun idle(slices: List<SliceRecord>): Boolean {
        val cpu = slices.map { it.cpuShare ?: return false }
        return cpu.average() <= Flags.IDLE_CPU
    }
}
