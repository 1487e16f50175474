package stackbench.runner.cell

import stackbench.runner.results.Flags

/** Why a warm-up ended. */
enum class WarmupEnd(val id: String) {
    /** Compilation quiet and throughput without trend: the app had settled. */
    STEADY("steady"),

    /**
     * Compilation quiet, and the app's CPU (compiler included) under [WarmupWatch.LIGHT_WORK] of a round trip: the
     * JIT can move only that CPU part, so no compilation still to come can move a closed load's throughput by more,
     * whatever its slices show (a round trip of seconds completes in waves that slices of a second cannot level).
     */
    LIGHT("light"),

    /**
     * A closed load's rate held at its Little's-law ceiling (within [Flags.CEILING_SLACK]),
     * without trend, over the last [WarmupWatch.FLAT_SLICES]: its waits, not its CPU, bound it, so no compilation still
     * to come could raise its throughput (the verdicts count such a window although it is flagged, the same reasoning).
     * Only where the app had not settled by the JVM's signals first.
     */
    CEILING("ceiling"),

    /**
     * The app's throughput settled, with the JIT's share of the CPU and its compilations' clock small and not falling
     * ([SteadyThroughput], `clockMatters`), though the compilers had not gone quiet slice by slice as [STEADY] asks.
     * Only where none of the rules above ended the warm-up first.
     */
    FLAT("flat"),

    /**
     * The cap was reached with the app's throughput settled and the JIT's share of the CPU small and not falling
     * ([SteadyThroughput] without the compilations' clock: there is no more time to give a starved compiler): steady
     * at the cap, not `unsteady`.
     */
    FLAT_AT_CAP("flat-at-cap"),

    /** The cap was reached before the app settled. */
    CAP("cap"),
}
