package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.parameters.options.OptionWithValues
import com.github.ajalt.clikt.parameters.options.RawOption
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.convert
import stackbench.runner.suite.Ranges
import stackbench.runner.yaml.OutOfRange
import stackbench.runner.yaml.Units
import java.time.Duration

/*
 * Bounded flags: a value is read as the suite reader reads the same key (Units), checked against the same
 * bounds (suite/Ranges) and refused with the same words. Clikt reports a refusal as
 * "invalid value for --FLAG: ..." and execute() turns it into exit code 2, before anything starts.
 */

/** A whole number in [range]: `--repetitions 2147483647` is refused, not planned. */
fun RawOption.wholeNumber(range: IntRange) = convert("N") { text ->
    text.trim().toIntOrNull()?.takeIf { it in range } ?: fail(OutOfRange.notWholeNumber(text, range))
}

/** A finite number in [min]..[max]: NaN and Infinity are not numbers here, as in a suite. */
fun RawOption.number(min: Double, max: Double) = convert("F") { text ->
    Units.number(text)?.takeIf { it in min..max } ?: fail(OutOfRange.notNumber(text, min, max))
}

/** A duration (`20m`) in [min]..[max]. */
fun RawOption.duration(min: Duration, max: Duration) = convert("DURATION") { text ->
    val d = Units.duration(text) ?: fail("'$text' is not a duration; ${Units.DURATION_HINT}")
    when {
        d < min -> fail(OutOfRange.shorterThan(text, min))
        d > max -> fail(OutOfRange.longerThan(text, max))
        else -> d
    }
}

/** `--threshold PCT`: the band ±PCT a comparison's decision is placed against (`5%` or `0.05`), [default] when not given. */
fun CliktCommand.thresholdOption(default: Double): OptionWithValues<Double, Double, Double> {
    val shown = "${java.math.BigDecimal(default * 100).stripTrailingZeros().toPlainString()}%"
    return option("--threshold", metavar = "PCT", help = "the practical threshold, e.g. $shown (default) or $default").convert { text ->
        val t = Units.percent(text)?.div(100) ?: Units.number(text)
        t?.takeIf { it >= 0 && it < 1 } ?: fail("'$text' is not a threshold: a percentage from 0 % up to (not including) 100 %, e.g. 5%")
    }.default(default, shown)
}
