package stackbench.runner.cli

import java.io.ByteArrayOutputStream
import java.io.PrintStream

/** What a command line gave: its exit code and what it printed to stdout and stderr. */
data class Ran(val code: Int, val out: String, val err: String)

/** Runs the CLI in this process with [args], capturing what it prints, for tests. */
fun captured(vararg args: String): Ran {
    val out = ByteArrayOutputStream()
    val err = ByteArrayOutputStream()
    val (savedOut, savedErr) = System.out to System.err
    System.setOut(PrintStream(out, true, Charsets.UTF_8))
    System.setErr(PrintStream(err, true, Charsets.UTF_8))
    val code = try { execute(arrayOf(*args)) } finally { System.setOut(savedOut); System.setErr(savedErr) }
    return Ran(code, out.toString(Charsets.UTF_8), err.toString(Charsets.UTF_8))
}
