package stackbench.runner.suite

import java.time.Duration

/**
 * The bounds of the values a suite key or a command-line flag may take, in one place: the suite reader and the CLI
 * reject the same values, with the same words ([stackbench.runner.yaml.OutOfRange]).
 */
object Ranges {
    /** `repetitions` and `--repetitions`. */
    val REPETITIONS = 1..1000

    /** `processes` and `--processes`: separate app processes (JVMs) per configuration. */
    val PROCESSES = 1..100

    /**
     * The most looks `--until-decided` plans (K of [stackbench.runner.stats.SequentialLooks]), whatever its budget
     * allows: O'Brien-Fleming spending gives an early look almost nothing (with K = 10 the first look's interval is
     * at 1 − 6·10⁻¹⁰), so more looks make the first ones useless; 4 is the design ProcessLevelKnownTruthTest measures.
     */
    const val MAX_LOOKS = 4

    /** `until-decided` and `--until-decided`. */
    val UNTIL_DECIDED_MIN: Duration = Duration.ofSeconds(1)
    val UNTIL_DECIDED_MAX: Duration = Duration.ofHours(24)

    /** `--scale`: from a hundredth of every duration (windows never go below 1 s) to a hundred times it. */
    const val SCALE_MIN = 0.01
    const val SCALE_MAX = 100.0

    /** A TCP port (`serve --port`). */
    val PORT = 1..65535

    /** A browser window's width or height in CSS pixels (`report --width`, `--height`). */
    val PIXELS = 100..20_000
}
