package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.multiple
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.path
import java.nio.file.Files
import java.nio.file.Path

class PublishCommand : CliktCommand(name = "publish") {
    override fun help(context: Context) = """
        Copies finished runs to where readers open them, TO/<the run's folder name>/: the record compressed
        (results.json.gz), summary.md, suite.yaml, report.html (and compare.html), and every file those pages link
        inside the run's folder (flame graphs, profile differences). Only a run that finished, made from a clean tree
        at a recorded commit, is published; any other is named with the reason and left out (exit 2).
        `findings-run --publish` publishes the claims' runs the same way.
    """.trimIndent()

    private val dirs by argument("DIR", help = "a results folder written by ./stackbench run").path().multiple(required = true)
    private val to by option("--to", help = "the folder of published runs (default docs/runs)").path(canBeFile = false).default(Path.of("docs/runs"))

    override fun run() {
        val target = Home.path.resolve(to)
        val refused = dirs.filterNot { dir ->
            val abs = dir.toAbsolutePath().normalize()
            if (!Files.isDirectory(abs)) throw BadInput("$dir is not a results folder")
            if (abs.startsWith(target)) throw BadInput("$dir is already inside --to $target")
            Publishing.publish(abs, target.resolve(abs.fileName.toString()), "run <its suite> --resume $dir")
        }
        if (refused.isNotEmpty()) throw ProgramResult(Exit.BAD_INPUT)
    }
}
