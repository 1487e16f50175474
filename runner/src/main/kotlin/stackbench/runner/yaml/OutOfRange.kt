package stackbench.runner.yaml

import java.time.Duration

/** How a value outside its bounds is reported, by the suite reader and the command line alike. */
object OutOfRange {
    fun notWholeNumber(text: String, range: IntRange) = "'$text' is not a whole number in ${range.first}..${range.last}"

    fun notNumber(text: String, min: Double, max: Double) = "'$text' is not a number in ${fmt(min)}..${fmt(max)}"

    fun shorterThan(text: String, min: Duration) = "'$text' is shorter than ${Units.formatDuration(min)}"

    fun longerThan(text: String, max: Duration) = "'$text' is longer than ${Units.formatDuration(max)}, the most it may be"

    fun fmt(d: Double) = if (d == Math.floor(d) && d < 1e15) d.toLong().toString() else d.toString()
}
