package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.multiple
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.decide.RuleChange
import stackbench.runner.cell.WarmupReplay
import stackbench.runner.results.ResultsStore
import java.util.Locale

class WarmupsCommand : CliktCommand(name = "warmups") {
    override fun help(context: Context) = """
        Judges every warm-up that past runs kept again by this version's steady-state rule on the app's throughput
        (cell/SteadyThroughput: settled, with the JIT's share of the CPU small and not falling), and prints per run the
        warm-ups that reached their cap and the measured windows that a flag about the app's state (unsteady, warming,
        slowing, compiling, no-steady-state) leaves out, as recorded and as judged now; and the windows whose one such
        flag was unsteady, the most a rule for the end of a warm-up could bring back; and how the capped warm-ups' throughput
        went (settled, rising, falling, oscillating). Then what counting the app-flagged windows changes (decide/RuleChange):
        the windows left out of throughput, the suite's comparisons with a side of no process left, and those decided (at one
        look at 95 %), when a flag about the app's state excluded its window, and now that only the instrument's flags do.
        Reads only: nothing is written.
    """.trimIndent()

    private val dirs by argument("DIR", help = "results folders written by ./stackbench run, or published ones (docs/runs/<run>)").path().multiple(required = true)

    override fun run() {
        val rows = dirs.map { dir ->
            val result = try {
                ResultsStore.read(dir)
            } catch (e: IllegalArgumentException) {
                throw BadInput(e.message ?: "cannot read $dir")
            }
            val o = WarmupReplay.of(result)
            val r = RuleChange.of(result)
            listOf(
                dir.fileName.toString(),
                "${o.windows}",
                "${o.warmups}",
                if (o.warmups == 0) "-" else "${share(o.capBefore, o.warmups)} → ${share(o.capAfter, o.warmups)}",
                if (o.capBefore == 0) "-" else "${o.endedEarlier} · ${o.flatAtCap} · ${o.capBefore - o.endedEarlier - o.flatAtCap}",
                if (o.windows == 0) "-" else "${share(o.leftOutBefore, o.windows)} → ${share(o.leftOutAfter, o.windows)}",
                "${o.unsteadyAlone}",
                o.cappedClasses.entries.sortedBy { it.key }.joinToString(", ") { "${it.value} ${it.key}" },
                if (r.windows == 0) "-" else "${share(r.leftOutBefore, r.windows)} → ${share(r.leftOutNow, r.windows)}",
                if (r.comparisons == 0) "-" else "${r.emptySideBefore} → ${r.emptySideNow} of ${r.comparisons}",
                if (r.comparisons == 0) "-" else "${r.decidedBefore} → ${r.decidedNow} of ${r.comparisons}",
            )
        }
        println(SummaryTable.table(
            listOf("run", "windows", "warm-ups kept", "reached their cap", "capped: ended earlier · steady at cap · unsteady", "windows left out (app state)", "by unsteady alone", "capped warm-ups: how they went",
                "throughput windows left out, app flags excluding → counting", "comparisons with a side of no process", "comparisons decided"),
            rows, rightAligned = setOf(1, 2, 6),
        ))
    }

    private fun share(n: Int, of: Int) = "$n (%.0f %%)".format(Locale.ROOT, 100.0 * n / of)
}
