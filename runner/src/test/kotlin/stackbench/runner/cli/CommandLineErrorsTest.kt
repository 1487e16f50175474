package stackbench.runner.cli

import com.github.ajalt.clikt.core.MultiUsageError
import com.github.ajalt.clikt.core.UsageError
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.MethodSource

/**
 * A wrong command line always says what was wrong and what would be right: for every command, an unknown option
 * (alone or followed by a value), an option missing its value and an extra argument exit 2 with the command's
 * usage line and every error, naming the offending token, on stderr, and nothing on stdout. Every case fails
 * while parsing, before the command runs: nothing is built, started or measured.
 */
class CommandLineErrorsTest {
    enum class Mistake { UNKNOWN_OPTION, UNKNOWN_OPTION_WITH_VALUE, OPTION_WITHOUT_VALUE, EXTRA_ARGUMENT }

    /** A wrong command line, the token it must name, and the errors it must print under the command's usage. */
    class Case(val command: String, val mistake: Mistake, val args: List<String>, val token: String, val errors: List<String>) {
        override fun toString() = "${args.joinToString(" ")}  ($mistake)"
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    fun `a wrong command line prints the command's usage and every error, naming the token, and exits 2`(case: Case) {
        val r = captured(*case.args.toTypedArray())
        assertThat(r.code).describedAs(r.err).isEqualTo(Exit.BAD_INPUT)
        assertThat(r.out).isEmpty()
        assertThat(r.err).contains(case.token)
        assertThat(r.err).isEqualTo("${usage.getValue(case.command)}\n\n${case.errors.joinToString("\n") { "Error: $it" }}\n")
    }

    @Test
    fun `every registered command has a case for every mistake it can be given`() {
        val root = commands()
        assertThat(usage.keys).containsExactlyInAnyOrderElementsOf(root.registeredSubcommandNames())
        for (command in root.registeredSubcommands()) {
            val name = command.commandName
            val covered = cases().filter { it.command == name }.map { it.mistake }.toSet()
            // an option that takes a value can be given without it; a command whose options are all flags cannot
            val takesValue = command.registeredOptions().any { it.nvalues.first > 0 }
            // an extra argument is one past the last: none is extra after an argument taking any number of values
            val takesAnyNumber = command.registeredArguments().any { it.nvalues < 0 }
            val possible = Mistake.entries.filter {
                (it != Mistake.OPTION_WITHOUT_VALUE || takesValue) && (it != Mistake.EXTRA_ARGUMENT || !takesAnyNumber)
            }
            assertThat(covered).describedAs("the mistakes covered for `$name`").containsExactlyInAnyOrderElementsOf(possible)
        }
        assertThat(cases().map { it.command to it.mistake }).doesNotHaveDuplicates()
    }

    @Test
    fun `a wrong command line before any command prints the root's usage and its commands`() {
        val unknownOption = captured("--bogus", "1")
        assertThat(unknownOption.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(unknownOption.out).isEmpty()
        assertThat(unknownOption.err).isEqualTo("$rootUsage\n\nError: no such option --bogus\nError: no such subcommand 1\n\n$rootCommands\n")

        val unknownCommand = captured("rnu")
        assertThat(unknownCommand.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(unknownCommand.out).isEmpty()
        assertThat(unknownCommand.err).isEqualTo("$rootUsage\n\nError: no such subcommand rnu\n\n$rootCommands\n")

        val unknownCommandAndSuite = captured("rnu", "quick")
        assertThat(unknownCommandAndSuite.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(unknownCommandAndSuite.out).isEmpty()
        assertThat(unknownCommandAndSuite.err).isEqualTo("$rootUsage\n\nError: got unexpected extra arguments (rnu quick)\n\n$rootCommands\n")

        val nearCommand = captured("finding")
        assertThat(nearCommand.err).isEqualTo("$rootUsage\n\nError: no such subcommand finding. (Possible subcommands: findings, findings-run)\n\n$rootCommands\n")
    }

    @Test
    fun `a usage error without a message or a context says what it is under the root's usage, never null`() {
        assertThat(usageErrorText(commands(), UsageError(null, "--x")))
            .isEqualTo("$rootUsage\n\nError: --x: not accepted (UsageError, without a message)\n\n$rootCommands")
        assertThat(usageErrorText(commands(), MultiUsageError(listOf(UsageError(null), UsageError("--y is not for this")))))
            .isEqualTo(
                "$rootUsage\n\nError: not accepted (UsageError, without a message)\nError: --y is not for this\n\n$rootCommands",
            )
    }

    @Test
    fun `an exception without a message is named by its class`() {
        assertThat(said(BadInput(""), "the input was refused")).isEqualTo("the input was refused (BadInput, without a message)")
        assertThat(said(java.nio.charset.CharacterCodingException(), "a byte sequence is not valid"))
            .isEqualTo("a byte sequence is not valid (CharacterCodingException, without a message)")
        assertThat(said(BadInput("no suite 'x'"), "the input was refused")).isEqualTo("no suite 'x'")
    }

    companion object {
        private const val rootUsage = "Usage: stackbench [<options>] <command> [<args>]..."
        private const val rootCommands = "Commands: run, plan, list, doctor, serve, report, compare, findings, findings-run, publish, reclassify, warmups, history, gate, init; " +
            "`stackbench <command> --help` says what one takes."

        /** Each command's usage line, as printed above its errors. */
        private val usage = mapOf(
            "run" to "Usage: stackbench run [<options>] [<suite>]",
            "plan" to "Usage: stackbench plan [<options>] [<suite>]",
            "list" to "Usage: stackbench list [<options>]",
            "doctor" to "Usage: stackbench doctor [<options>]",
            "serve" to "Usage: stackbench serve [<options>] <app> [<property=value>]...",
            "report" to "Usage: stackbench report [<options>] <dir>",
            "compare" to "Usage: stackbench compare [<options>] <a> <b>",
            "findings" to "Usage: stackbench findings [<options>]",
            "findings-run" to "Usage: stackbench findings-run [<options>] [<id>]...",
            "publish" to "Usage: stackbench publish [<options>] <dir>...",
            "reclassify" to "Usage: stackbench reclassify [<options>] <dir>",
            "warmups" to "Usage: stackbench warmups [<options>] <dir>...",
            "history" to "Usage: stackbench history [<options>] [<args>]...",
            "gate" to "Usage: stackbench gate [<options>]",
            "init" to "Usage: stackbench init [<options>] <jar|command|url> [<args>]...",
        )

        private fun case(mistake: Mistake, token: String, vararg args: String, errors: List<String>) =
            Case(args.first(), mistake, args.toList(), token, errors)

        /** What clikt says of `--bogus`: with the command's option nearest to it, if one is near enough. */
        private fun noSuchOption(nearest: String?) = "no such option --bogus" + (nearest?.let { ". Did you mean $it?" } ?: "")

        private fun unknown(vararg args: String, nearest: String? = null, also: List<String> = emptyList()) =
            case(Mistake.UNKNOWN_OPTION, "--bogus", *args, "--bogus", errors = listOf(noSuchOption(nearest)) + also)

        private fun unknownWithValue(vararg args: String, nearest: String? = null) =
            case(Mistake.UNKNOWN_OPTION_WITH_VALUE, "--bogus", *args, "--bogus", "1", errors = listOf(noSuchOption(nearest)))

        private fun withoutValue(option: String, vararg args: String) =
            case(Mistake.OPTION_WITHOUT_VALUE, option, *args, option, errors = listOf("option $option requires a value"))

        private fun extra(vararg args: String) =
            case(Mistake.EXTRA_ARGUMENT, "extra", *args, "extra", errors = listOf("got unexpected extra argument (extra)"))

        @JvmStatic
        fun cases(): List<Case> = listOf(
            unknown("run", nearest = "--out"),
            unknownWithValue("run", "quick", nearest = "--out"),
            withoutValue("--scale", "run", "quick"),
            extra("run", "quick"),

            unknown("plan"),
            unknownWithValue("plan", "quick"),
            withoutValue("--repetitions", "plan", "quick"),
            extra("plan", "quick"),

            // list and doctor take no value (doctor's one option is the flag --fix)
            unknown("list"),
            unknownWithValue("list"),
            extra("list"),

            unknown("doctor"),
            unknownWithValue("doctor", "--fix"),
            extra("doctor"),

            // serve takes any number of PROPERTY=VALUE after APP: none is extra
            unknown("serve", nearest = "--boot", also = listOf("missing argument <app>")),
            unknownWithValue("serve", "tomcat", nearest = "--boot"),
            withoutValue("--port", "serve", "tomcat"),

            unknown("report", also = listOf("missing argument <dir>")),
            unknownWithValue("report", "results/some-run"),
            withoutValue("--width", "report", "results/some-run"),
            extra("report", "results/some-run"),

            unknown("compare", nearest = "--out", also = listOf("missing argument <a>", "missing argument <b>")),
            unknownWithValue("compare", "results/a", "results/b", nearest = "--out"),
            withoutValue("--out", "compare", "results/a", "results/b"),
            extra("compare", "results/a", "results/b"),

            unknown("findings"),
            unknownWithValue("findings", "--check"),
            withoutValue("--claims", "findings", "--check"),
            extra("findings", "--check"),

            // findings-run takes any number of ids: none is extra
            unknown("findings-run", "--dry-run", nearest = "--out"),
            unknownWithValue("findings-run", "cpu-offload-p99", "--dry-run", nearest = "--out"),
            withoutValue("--budget", "findings-run", "--dry-run"),

            // publish takes any number of folders: none is extra
            unknown("publish", also = listOf("missing argument <dir>")),
            unknownWithValue("publish", "results/some-run"),
            withoutValue("--to", "publish", "results/some-run"),

            // reclassify's one option is the flag --dry-run
            unknown("reclassify", also = listOf("missing argument <dir>")),
            unknownWithValue("reclassify", "results/some-run", "--dry-run"),
            extra("reclassify", "results/some-run", "--dry-run"),

            // warmups takes any number of folders and no option: none is extra, none lacks a value
            unknown("warmups", also = listOf("missing argument <dir>")),
            unknownWithValue("warmups", "results/some-run"),

            // history takes any number of arguments (a suite and keys, or the folders of --rebuild): none is extra
            unknown("history"),
            unknownWithValue("history", "quick"),
            withoutValue("--html", "history", "quick"),

            unknown("gate", also = listOf("missing option --baseline")),
            unknownWithValue("gate", "--baseline", "latest"),
            withoutValue("--current", "gate", "--baseline", "latest"),
            extra("gate", "--baseline", "latest"),

            // init takes any number of the service's arguments after its target: none is extra
            unknown("init", also = listOf("missing argument <jar|command|url>")),
            unknownWithValue("init", "orders.jar"),
            withoutValue("--path", "init", "orders.jar"),
        )
    }
}
