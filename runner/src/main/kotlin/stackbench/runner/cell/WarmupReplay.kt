package stackbench.runner.cell

import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Flags
import stackbench.runner.results.RunResult
import stackbench.runner.results.Settlings

/**
 * A past run's warm-ups judged again from the slices every cell keeps, by today's steady-state rule on the app's
 * throughput ([SteadyThroughput]), beside how they were recorded: how many reached their cap, and how many measured
 * windows a flag about the app's own state ([APP_STATE]) leaves out, before and after. Nothing is measured or
 * written again. Pure.
 *
 * Replayed as the warm-up would have run: a capped warm-up ends earlier when the rule, judged after each slice with the
 * compilations' clock (and not before the suite's minimum warm-up), holds at a slice before its last; else it is
 * judged once more at its cap, without the clock. Either way it is no longer `unsteady`. What it cannot replay: a
 * warm-up ended earlier would have been followed by another window than the one measured, whose other flags (its
 * shape, `compiling`) are kept as measured.
 */
object WarmupReplay {

    data class Outcome(
        val run: String,
        /** Measured windows: cells that finished with a window. */
        val windows: Int,
        /** Of them, with a warm-up whose slices were kept. */
        val warmups: Int,
        val capBefore: Int,
        /** Capped warm-ups that the rule would have ended before their cap. */
        val endedEarlier: Int,
        /** Capped warm-ups that the rule finds steady at their cap. */
        val flatAtCap: Int,
        val leftOutBefore: Int,
        val leftOutAfter: Int,
        /**
         * Windows whose one app-state flag was `unsteady`: the most that any rule for the end of a warm-up could bring
         * back without measuring again (the others carry their window's own shape or `compiling` too).
         */
        val unsteadyAlone: Int,
        /** The capped warm-ups by how their throughput went ([Settlings]: `settled`, `rising`, `falling`, `oscillating`; `too few slices`). */
        val cappedClasses: Map<String, Int> = emptyMap(),
    ) {
        /** Warm-ups still reaching their cap: the capped ones the rule does not end earlier (steady at the cap or not). */
        val capAfter: Int get() = capBefore - endedEarlier
    }

    /** What the rule does with one warm-up that reached its cap. */
    enum class Replayed { ENDED_EARLIER, FLAT_AT_CAP, STILL_CAPPED }

    fun of(result: RunResult): Outcome {
        val windows = result.cells.filter { it.status == CellStatus.OK && it.window.measured != null }
        val kept = windows.filter { it.warmup.record?.slices?.isNotEmpty() == true }
        val capped = kept.filter { it.warmup.record!!.endedBy == "cap" }.associateWith(::replay)
        fun leftOut(cell: CellResult) = Flags.appState(cell).isNotEmpty()
        val after = windows.count { c ->
            val accepted = capped[c]?.let { it != Replayed.STILL_CAPPED } == true
            leftOut(if (accepted) c.copy(flags = c.flags.filterNot { it.code == "unsteady" }) else c)
        }
        return Outcome(
            run = result.run.id, windows = windows.size, warmups = kept.size, capBefore = capped.size,
            endedEarlier = capped.values.count { it == Replayed.ENDED_EARLIER }, flatAtCap = capped.values.count { it == Replayed.FLAT_AT_CAP },
            leftOutBefore = windows.count(::leftOut), leftOutAfter = after,
            unsteadyAlone = windows.count { c -> Flags.appState(c).map { it.code }.toSet() == setOf("unsteady") },
            cappedClasses = capped.keys.groupingBy { Settlings.of(it)?.kind ?: "too few slices" }.eachCount(),
        )
    }

    /** [cell]'s capped warm-up replayed slice by slice. */
    fun replay(cell: CellResult): Replayed {
        val slices = cell.warmup.record!!.slices
        val minimum = cell.load.warmupMs / 1000.0
        val earlier = (1 until slices.size).any { k ->
            slices[k - 1].endSeconds >= minimum && SteadyThroughput.judge(slices.subList(0, k), clockMatters = true).steady
        }
        return when {
            earlier -> Replayed.ENDED_EARLIER
            SteadyThroughput.judge(slices, clockMatters = false).steady -> Replayed.FLAT_AT_CAP
            else -> Replayed.STILL_CAPPED
        }
    }
}
