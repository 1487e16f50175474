package stackbench.runner.results

import com.fasterxml.jackson.annotation.JsonIgnore
import stackbench.runner.stats.RatioDecision

/** The schema id every `results.json` carries; a reader upgrades schema 1 ([SchemaUpgrade]) and refuses another. */
const val SCHEMA = "stackbench.results/2"

/** The whole record of one run: what ran, on what, and every cell and capacity search it measured. */
data class RunResult(
    val schema: String = SCHEMA,
    val run: RunInfo,
    val environment: Environment,
    val cells: List<CellResult> = emptyList(),
    val searches: List<CapacityResult> = emptyList(),
    /** The suite's comparisons (`compare:`), decided from the cells: see decide/SuiteDecisions. */
    val decisions: List<DecisionRecord> = emptyList(),
    /** For each comparison whose two sides were profiled: where the time went, a against b (profiler/ProfileComparisons). */
    val profileComparisons: List<ProfileComparisonRecord> = emptyList(),
    /**
     * What each profiler mode of the run costs (decide/ProfileOverhead): from this run's own profiled windows against
     * the unprofiled ones beside them (`alternate: true`), or its comparisons of a profiled configuration against the
     * same unprofiled, else, for a run with profiles, from the lab's published measurement
     * (docs/runs/profile-overhead), naming the run and machine it came from.
     */
    val profileOverhead: List<ProfileOverheadRecord> = emptyList(),
)

/**
 * What profiling in [mode] cost: the throughput ratio profiled ÷ unprofiled of one configuration ([a] ÷ [b]), its
 * interval and relation as the comparison [comparison] decided it, in run [run] on [hostname] ([cpuModel]). [design]:
 * "alternating windows" (profiled windows against the unprofiled ones beside them in the same process: [pairs] pairs
 * in [processes] processes, [why] the decision in words) or "between processes" (a comparison of two configurations).
 */
data class ProfileOverheadRecord(
    val mode: String,
    val comparison: String,
    val a: String,
    val b: String,
    val ratio: Double?,
    val low: Double?,
    val high: Double?,
    val relation: String,
    val decided: Boolean,
    val threshold: Double,
    val run: String,
    val hostname: String,
    val cpuModel: String,
    val design: String? = null,
    val pairs: Int? = null,
    val processes: Int? = null,
    val why: String? = null,
)

/**
 * Where the time went in a comparison a ÷ b: each side's profiles (its cells' windows, each weighted alike) as self
 * time per frame, in ms per request when both sides have a CPU profile and a CPU cost per request ([perRequest]),
 * else as shares of each side's samples; the frames that changed most, and the flame graphs of what grew and what
 * shrank (files relative to the run's folder).
 */
data class ProfileComparisonRecord(
    val name: String,
    val a: String,
    val b: String,
    val mode: String,
    val perRequest: Boolean,
    val cellsA: Int,
    val cellsB: Int,
    val frames: List<FrameChangeRecord>,
    val files: Map<String, String> = emptyMap(),
    val notes: List<String> = emptyList(),
)

/** A frame's self time in a and in b (ms per request, or a share of the profile), and a − b. */
data class FrameChangeRecord(val frame: String, val a: Double, val b: Double, val change: Double)

/**
 * One comparison of a run, decided: which two configurations ([a] ÷ [b]) on which [figure] (throughput unless
 * `findings-run` asked another), the engine's [decision] as it made it (ratio, interval, p, relation, words, method,
 * look: stats/RatioDecision), and what the suite's decision adds around it: the cells left out and waived, the rules
 * that chose them, each side's spread, and the processes that would decide. docs/results-schema.md describes every field.
 */
data class DecisionRecord(
    val name: String,
    val a: String,
    val b: String,
    val figure: String = "throughput",
    val decision: RatioDecision,
    val leftOut: List<String> = emptyList(),
    /** False when the cells carry no process (a run before processes were recorded): each window was taken as its own process. */
    val processesRecorded: Boolean? = null,
    /** The windows counted although flagged, each with the flags and why the figure does not depend on them ([Flags.waived]). */
    val waived: List<String> = emptyList(),
    /** The version of the rules that decided which windows count ([Flags.RULES]); null in runs decided before it was recorded. */
    val rules: String? = null,
    /** How each side's counted windows varied, between processes and within one (null below 2 processes a side). */
    val spreadA: SpreadRecord? = null,
    val spreadB: SpreadRecord? = null,
    /**
     * The fewest processes a side (up to 20) that would decide the measured ratio at this look's confidence if the
     * sides varied as measured, with as many windows a process (stats/Components.processesNeeded); null when 20 would
     * not, or the spreads are unknown. Decided paired by round (`paired-log-process-means`): the fewest pairs of
     * rounds, from the spread of the rounds' log ratios (stats/PairedRatio.pairsNeeded).
     */
    val processesNeeded: Int? = null,
    /**
     * The independent JVMs the decision rests on: both sides' processes when each side has its own, the pairs' JVMs when
     * paired by round (two a pair), the shared JVMs when both sides were measured by the same processes (one a pair);
     * null in runs decided before it was recorded.
     */
    val jvms: Int? = null,
    /** The one named request whose [figure] was compared (a suite comparison's `request:`); null: the cells' whole load. */
    val request: String? = null,
) {
    @get:JsonIgnore
    val decided: Boolean get() = decision.decided
}

/**
 * A side's variation with the process as the unit, as relative spreads (standard deviations of natural logarithms:
 * 0.02 ≈ 2 %): [between] processes and [within] one, between its windows (null with one window a process: then
 * [between] holds both). [windowsPerProcess] is the harmonic mean of the windows a process held.
 */
data class SpreadRecord(val processes: Int, val windowsPerProcess: Double, val between: Double, val within: Double?)

enum class RunStatus { RUNNING, COMPLETE, INTERRUPTED, FAILED }

/** The run itself: its suite (the whole text), scale, repetitions, command line and how it ended. */
data class RunInfo(
    val id: String,
    val suite: String,
    val suiteFile: String,
    val suiteText: String,
    val description: String = "",
    val scale: Double = 1.0,
    val repetitions: Int = 1,
    /** App processes per configuration (the suite's `processes`), [repetitions] windows in each; null in runs before processes were recorded (one). */
    val processes: Int? = null,
    /** `cell` or `app`: the restart policy the run used (the suite's, or `--restart`'s). */
    val restart: String? = null,
    /** The app configurations `--apps` kept; null: every one of the suite. */
    val apps: List<String>? = null,
    val plannedCells: Int = 0,
    val command: List<String> = emptyList(),
    val startedAt: String,
    val finishedAt: String? = null,
    val status: RunStatus = RunStatus.RUNNING,
    /** A remark about the run written by a person (e.g. on a hand-edited fixture). */
    val note: String? = null,
    /** The machine's pace read for 2 s before the first cell ([PaceReading]): the run's first reference of a calm host. */
    val pace: PaceReading? = null,
    /** The configurations the run was narrowed to (`findings-run`: the cells its claims need); null: every one of its suite. */
    val only: List<String>? = null,
    /** The comparisons the run decided in place of its suite's `compare:` list (`findings-run`); null: the suite's own. */
    val comparisons: List<ComparisonRecord>? = null,
    /**
     * Each sitting of the run, the first where it began and one more for each `--resume`, with the host and the tree it
     * ran on ([Sittings]); empty in runs before 2026-12-07, whose [Environment] is their last sitting's and which do not
     * say whether they were resumed.
     */
    val sittings: List<Sitting> = emptyList(),
) {
    /** [suite] narrowed as this run was (`--resume` plans the same cells and decides the same comparisons). */
    fun focus(suite: stackbench.runner.suite.Suite): stackbench.runner.suite.Suite =
        if (only == null) suite else suite.focused(only.toSet(), comparisons.orEmpty().map { it.comparison() })
}

/**
 * One sitting of a run: when it began ([startedAt]), on which host ([hostname], [cpuModel]) and from which tree
 * ([gitCommit], [gitDirty], [gitChanges] as [Environment] records them). A run resumed in another session can meet
 * another machine or another commit; its sittings say so (results/Sittings).
 */
data class Sitting(
    val startedAt: String,
    val hostname: String,
    val cpuModel: String,
    val gitCommit: String? = null,
    val gitDirty: Boolean? = null,
    val gitChanges: List<String>? = null,
)

/** A comparison a run decides that its suite file does not name (`findings-run`): as [stackbench.runner.suite.SuiteComparison] holds it. */
data class ComparisonRecord(
    val name: String, val a: String, val b: String, val threshold: Double, val figure: String = "throughput", val paired: Boolean = false,
) {
    fun comparison() = stackbench.runner.suite.SuiteComparison(name, a, b, threshold, figure = figure, paired = paired)

    companion object {
        fun of(c: stackbench.runner.suite.SuiteComparison) = ComparisonRecord(c.name, c.a, c.b, c.threshold, c.figure, c.paired)
    }
}

/** The machine and software a run measured on. */
data class Environment(
    val hostname: String,
    val os: String,
    val kernel: String,
    val cpuModel: String,
    val logicalCpus: Int,
    val physicalCpus: Int,
    val memoryBytes: Long,
    val runnerJdk: String,
    val appJdk: String,
    val gitCommit: String? = null,
    val gitDirty: Boolean? = null,
    /** With [gitDirty], the paths that differed from [gitCommit] (`git status --porcelain`, as `XY path`); null in runs before 2026-11-29. */
    val gitChanges: List<String>? = null,
    /** Driver id → its version line. */
    val drivers: Map<String, String> = emptyMap(),
    /** `cgroup-v1`, `cgroup-v2` or `taskset`. */
    val isolation: String,
    /** App label → the versions its `/info` reported, once per app. */
    val apps: Map<String, AppVersions> = emptyMap(),
    /** The hosts the run's roles ran on and which ran where (the suite's `hosts:` and `placement:`); empty: all on this machine. */
    val hosts: List<HostRecord> = emptyList(),
)

/** A host of the run: its kind and address, the roles it ran, and how its link was shaped. */
data class HostRecord(
    val name: String,
    /** `local`, `netns` or `ssh`. */
    val kind: String,
    val address: String,
    /** Of `app`, `downstream`, `load`. */
    val roles: List<String>,
    val rttMs: Double? = null,
    val rateBitsPerSecond: Long? = null,
    /** How the round trip was emulated: `netem` (the kernel's qdisc) or `relay` (stackbench's delay relay, which terminates TCP). */
    val rttMethod: String? = null,
    /** A namespace's name, or an ssh host's user@address:port. */
    val detail: String? = null,
)

data class AppVersions(
    val springBoot: String,
    val springFramework: String,
    val server: String,
    val serverVersion: String,
    val jdk: String,
)

/** One capacity search: the highest offered rate that met the latency and error target. */
data class CapacityResult(
    val key: String,
    val configKey: String,
    val app: String,
    val endpoint: String,
    val repetition: Int,
    val sloP99Ms: Double,
    val sloErrorRate: Double,
    /** The highest rate that held; null when even the start rate broke the target. */
    val capacity: Double?,
    /** The lowest rate that broke it; null when the maximum rate held. */
    val brokeAt: Double?,
    val cellKeys: List<String>,
    val steps: List<CapacityStep>,
    /** The closed-model cell that warmed the app before the first step (`restart: app`); null when none ran. */
    val primeKey: String? = null,
)

data class CapacityStep(val rate: Double, val p99Ms: Double?, val errorRate: Double?, val held: Boolean, val cellKey: String)
