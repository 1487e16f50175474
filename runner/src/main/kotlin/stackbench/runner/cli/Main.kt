package stackbench.runner.cli

import com.github.ajalt.clikt.parameters.options.eagerOption
import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.CliktError
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.MultiUsageError
import com.github.ajalt.clikt.core.PrintHelpMessage
import com.github.ajalt.clikt.core.PrintMessage
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.core.UsageError
import com.github.ajalt.clikt.core.parse
import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.output.Localization
import com.github.ajalt.clikt.output.ParameterFormatter
import kotlin.system.exitProcess

/** Exit codes, in one place. */
object Exit {
    const val OK = 0
    const val CELL_FAILED = 1
    const val BAD_INPUT = 2

    /** `gate`: a configuration is decided slower than the baseline beyond the threshold. */
    const val GATE_SLOWER = 1

    /** `gate`: the runs cannot be compared (another suite, no configuration in both, too few processes to decide). */
    const val GATE_CANNOT_COMPARE = 2
}

/** Bad input the user can fix: a message, exit code 2. */
class BadInput(message: String) : RuntimeException(message)

class Stackbench : CliktCommand(name = "stackbench") {
    override fun help(context: Context) = """
        A benchmark lab for JVM server stacks and concurrency strategies: builds the apps under test, runs
        each configuration isolated (CPU and memory limits), drives it with real load generators, measures
        and verifies, and writes results and reports.

        Exit codes: 0 success, 1 a cell failed, 2 bad input; gate: 1 a configuration slower, 2 the runs cannot be compared.
    """.trimIndent()

    init {
        // eager, so that it answers before any subcommand is asked for; read only when given (it runs git)
        eagerOption("--version", help = "print the version and the commit it runs from, and exit") { throw PrintMessage(Version.line()) }
    }

    override fun run() = Unit
}

fun commands() = Stackbench().subcommands(
    RunCommand(), PlanCommand(), ListCommand(), DoctorCommand(), ServeCommand(), ReportCommand(), CompareCommand(), FindingsCommand(),
    FindingsRunCommand(), PublishCommand(), ReclassifyCommand(), WarmupsCommand(), HistoryCommand(), GateCommand(), InitCommand(),
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
        println(e.context?.command?.getFormattedHelp() ?: cli.getFormattedHelp().orEmpty())
        Exit.OK
    } catch (e: PrintMessage) {
        println(e.message.orEmpty())
        e.statusCode
    } catch (e: UsageError) {
        System.err.println(usageErrorText(cli, e))
        Exit.BAD_INPUT
    } catch (e: CliktError) {
        System.err.println("stackbench: ${said(e, "the command line was not accepted")}")
        Exit.BAD_INPUT
    } catch (e: BadInput) {
        System.err.println("stackbench: ${said(e, "the input was refused")}")
        Exit.BAD_INPUT
    } catch (e: stackbench.runner.install.SetupFailed) {
        System.err.println("stackbench: ${said(e, "a tool could not be set up")}")
        Exit.BAD_INPUT
    } catch (e: stackbench.runner.yaml.SuiteException) {
        System.err.println(said(e, "the suite was refused"))
        System.err.println("stackbench: the suite has ${e.problems.size} problem(s); nothing was started")
        Exit.BAD_INPUT
    } catch (e: java.nio.charset.CharacterCodingException) {
        // a file read as UTF-8 text that is not (callers reading suites use SuiteText, which says where)
        System.err.println("stackbench: a file is not UTF-8 text (${said(e, "a byte sequence is not valid")}); nothing was started")
        Exit.BAD_INPUT
    }
}

/**
 * What a usage error prints: the usage line of the command it came from, then every error, one a line.
 * The command is the one whose context raised the error, else the one whose context raised the first of its
 * errors (a [MultiUsageError], as for an unknown option followed by a value, has neither a context nor a
 * message of its own), else the subcommand invoked, else the root; the root's errors end with its commands.
 */
internal fun usageErrorText(root: CliktCommand, e: UsageError): String {
    val errors = (e as? MultiUsageError)?.errors ?: listOf(e)
    val context = e.context ?: errors.firstNotNullOfOrNull { it.context }
        ?: runCatching { root.currentContext }.getOrNull()?.let { it.invokedSubcommand?.currentContext ?: it }
    val localization = context?.localization ?: object : Localization {} // clikt's own words
    // an error that would print nothing after "Error:" says what it is instead
    val told = errors.map { error ->
        if (error.formatMessage(localization, ParameterFormatter.Plain).isNotBlank()) error
        else UsageError(listOfNotNull(error.paramName, said(error, "not accepted")).joinToString(": "), error.paramName, error.statusCode)
    }
    val shown = if (told == errors) e else told.singleOrNull() ?: MultiUsageError(told)
    shown.context = context
    val command = context?.command ?: root
    val text = command.getFormattedHelp(shown)
        ?: told.joinToString("\n") { "stackbench: ${it.formatMessage(localization, ParameterFormatter.Plain)}" }
    // before a command is known (a misspelt one: `stackbench rnu quick`), say which there are
    val commands = command.registeredSubcommandNames()
    return if (commands.isEmpty()) text
    else "$text\n\nCommands: ${commands.joinToString(", ")}; `stackbench <command> --help` says what one takes."
}

/** An exception's message, or, when it has none, [otherwise] and the exception's class: never a bare `null`. */
internal fun said(e: Throwable, otherwise: String): String =
    e.message?.takeIf { it.isNotBlank() } ?: "$otherwise (${e.javaClass.simpleName}, without a message)"

fun main(args: Array<String>) {
    exitProcess(execute(args))
}
