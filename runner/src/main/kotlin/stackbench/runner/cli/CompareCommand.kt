package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.compare.Compares

class CompareCommand : CliktCommand(name = "compare") {
    override fun help(context: Context) = """
        Compares two runs: per configuration present in both, the change in throughput and p99 from A to B with
        the spread across repetitions. A change is called real only when the repetitions support it (Mann-Whitney
        U and a bootstrap interval); with fewer than 3 repetitions a side it says it cannot tell. Differences in
        JDK, kernel, CPU and versions are listed first. Prints the comparison and writes it as compare.html.
    """.trimIndent()

    private val a by argument("A", help = "the earlier results folder (the baseline)").path()
    private val b by argument("B", help = "the later results folder").path()
    private val out by option("--out", metavar = "FILE", help = "where to write the HTML (default: B/compare.html)").path(canBeDir = false)

    override fun run() {
        val written = try {
            Compares.write(a, b, out)
        } catch (e: IllegalArgumentException) {
            throw BadInput(e.message ?: "cannot read $a or $b")
        }
        print(written.text)
        println()
        println("compare.html: ${written.html}")
    }
}
