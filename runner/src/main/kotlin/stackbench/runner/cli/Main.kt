package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.CliktError
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.PrintHelpMessage
import com.github.ajalt.clikt.core.PrintMessage
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.core.UsageError
import com.github.ajalt.clikt.core.parse
import com.github.ajalt.clikt.core.subcommands
import kotlin.system.exitProcess

/** Exit codes, in one place. */
object Exit {
    const val OK = 0
    const val CELL_FAILED = 1
    const val BAD_INPUT = 2
}

/** Bad input the user can fix: a message, exit code 2. */
class BadInput(message: String) : RuntimeException(message)

class Stackbench : CliktCommand(name = "stackbench") {
    override fun help(context: Context) = """
        A benchmark lab for JVM server stacks and concurrency strategies: builds the apps under test, runs
        each configuration isolated (CPU and memory limits), drives it with real load generators, measures
        and verifies, and writes results and reports.

        Exit codes: 0 success, 1 a cell failed, 2 bad input.
    """.trimIndent()

    override fun run() = Unit
}

fun commands() = Stackbench().subcommands(
    RunCommand(), PlanCommand(), ListCommand(), DoctorCommand(), ServeCommand(), ReportCommand(), CompareCommand(), FindingsCommand(),
    FindingsRunCommand(), ReclassifyCommand(),
)

/** The command line this process was started with, for the record. */
object Invocation {
    @Volatile var args: List<String> = emptyList()
}

/** Runs the CLI and returns its exit code; [main] exits with it. */
fun execute(args: Array<String>): Int {
    Invocation.args = args.toList()
    val cli = commands()
    return try {
        cli.parse(args)
        Exit.OK
    } catch (e: ProgramResult) {
        e.statusCode
    } catch (e: PrintHelpMessage) {
        println(e.context?.command?.getFormattedHelp() ?: cli.getFormattedHelp())
        Exit.OK
    } catch (e: PrintMessage) {
        println(e.message)
        e.statusCode
    } catch (e: UsageError) {
        System.err.println(e.context?.command?.getFormattedHelp(e) ?: e.message)
        Exit.BAD_INPUT
    } catch (e: CliktError) {
        System.err.println(e.message)
        Exit.BAD_INPUT
    } catch (e: BadInput) {
        System.err.println("stackbench: ${e.message}")
        Exit.BAD_INPUT
    } catch (e: stackbench.runner.yaml.SuiteException) {
        System.err.println(e.message)
        System.err.println("stackbench: the suite has ${e.problems.size} problem(s); nothing was started")
        Exit.BAD_INPUT
    } catch (e: java.nio.charset.CharacterCodingException) {
        // a file read as UTF-8 text that is not (callers reading suites use SuiteText, which says where)
        System.err.println("stackbench: a file is not UTF-8 text (${e.message}); nothing was started")
        Exit.BAD_INPUT
    }
}

fun main(args: Array<String>) {
    exitProcess(execute(args))
}
