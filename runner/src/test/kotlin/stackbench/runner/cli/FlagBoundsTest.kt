package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path

/** Every numeric, duration and folder flag is bounded as the suite keys are: exit 2, the flag named, nothing started. */
class FlagBoundsTest {
    private fun run(vararg args: String): Pair<Int, String> {
        val err = ByteArrayOutputStream()
        val (savedErr, savedOut) = System.err to System.out
        System.setErr(PrintStream(err, true, Charsets.UTF_8))
        System.setOut(PrintStream(ByteArrayOutputStream(), true, Charsets.UTF_8))
        val code = try { execute(arrayOf(*args)) } finally { System.setErr(savedErr); System.setOut(savedOut) }
        return code to err.toString(Charsets.UTF_8)
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource(
        delimiter = '|',
        quoteCharacter = '"',
        value = [
            "plan | --repetitions | 2147483647 | '2147483647' is not a whole number in 1..1000",
            "plan | --repetitions | 0 | '0' is not a whole number in 1..1000",
            "plan | --repetitions | 99999999999 | '99999999999' is not a whole number in 1..1000",
            "run | --repetitions | 1001 | '1001' is not a whole number in 1..1000",
            "plan | --scale | NaN | 'NaN' is not a number in 0.01..100",
            "plan | --scale | -1 | '-1' is not a number in 0.01..100",
            "plan | --scale | Infinity | 'Infinity' is not a number in 0.01..100",
            "run | --scale | NaN | 'NaN' is not a number in 0.01..100",
            "run | --scale | 0 | '0' is not a number in 0.01..100",
            "run | --scale | 1e9 | '1e9' is not a number in 0.01..100",
            "run | --until-decided | 0s | '0s' is shorter than 1s",
            "plan | --until-decided | 0s | '0s' is shorter than 1s",
            "plan | --until-decided | soon | 'soon' is not a duration; a duration is a number and a unit: 500ms, 30s, 2m, 1h",
            "run | --until-decided | 25h | '25h' is longer than 24h, the most it may be",
            "run | --until-decided | soon | 'soon' is not a duration; a duration is a number and a unit: 500ms, 30s, 2m, 1h",
            "serve | --port | 70000 | '70000' is not a whole number in 1..65535",
            "report | --width | -5 | '-5' is not a whole number in 100..20000",
            "report | --height | 0 | '0' is not a whole number in 100..20000",
        ],
    )
    fun `a flag out of its range is bad input naming the flag`(command: String, flag: String, value: String, message: String, @TempDir dir: Path) {
        val args = when (command) {
            "serve" -> arrayOf(command, "tomcat", "$flag=$value")
            "report" -> arrayOf(command, dir.toString(), "$flag=$value")
            else -> arrayOf(command, "quick", "$flag=$value")
        }
        val (code, err) = run(*args)
        assertThat(code).isEqualTo(Exit.BAD_INPUT)
        assertThat(err).contains("Error: invalid value for $flag: $message")
    }

    @Test
    fun `run --out naming an existing file is bad input, not FileAlreadyExistsException`(@TempDir dir: Path) {
        val file = Files.writeString(dir.resolve("results.txt"), "not a folder")
        val (code, err) = run("run", "quick", "--out", file.toString())
        assertThat(code).isEqualTo(Exit.BAD_INPUT)
        assertThat(err).contains("Error: invalid value for --out: directory \"$file\" is a file.")
        assertThat(err).doesNotContain("FileAlreadyExistsException")
    }

    @Test
    fun `compare --out naming a folder is bad input`(@TempDir dir: Path) {
        val (code, err) = run("compare", "a", "b", "--out", dir.toString())
        assertThat(code).isEqualTo(Exit.BAD_INPUT)
        assertThat(err).contains("Error: invalid value for --out: file \"$dir\" is a directory.")
    }

    @Test
    fun `the bounds themselves are accepted`() {
        val (code, _) = run("plan", "quick", "--repetitions", "1000", "--scale", "0.01")
        assertThat(code).isEqualTo(Exit.OK)
    }
}
