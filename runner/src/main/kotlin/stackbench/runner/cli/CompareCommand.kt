package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.stats.Decisions

class CompareCommand : CliktCommand(name = "compare") {
    override fun help(context: Context) = """
        Compares two runs: per configuration present in both, B ÷ A of throughput and of p99, each decided over the
        app processes as `gate` decides it (the same engine, counting rule and words as a suite's comparisons):
        higher or lower only when the ratio's whole interval lies beyond ±threshold, the same when it lies inside;
        with fewer than 2 processes a side it cannot tell. Differences in JDK, kernel, CPU and versions are listed
        first. With --request NAME, each configuration's named request NAME alone. Prints the comparison and writes it as compare.html.
    """.trimIndent()

    private val a by argument("A", help = "the earlier results folder (the baseline)").path()
    private val b by argument("B", help = "the later results folder").path()
    private val threshold by thresholdOption(Decisions.THRESHOLD)
    private val request by option("--request", metavar = "NAME",
        help = "compare one named request of a mix or a scenario (its throughput, p99 and errors), in the configurations that measured it")
    private val out by option("--out", metavar = "FILE", help = "where to write the HTML (default: B/compare.html)").path(canBeDir = false)

    override fun run() {
        val written = try {
            Compares.write(a, b, out, threshold, request)
        } catch (e: IllegalArgumentException) {
            throw BadInput(e.message ?: "cannot read $a or $b")
        }
        print(written.text)
        println()
        println("compare.html: ${written.html}")
    }
}
