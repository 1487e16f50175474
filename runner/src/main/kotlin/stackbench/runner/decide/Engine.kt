package stackbench.runner.decide

import stackbench.runner.results.CellResult
import stackbench.runner.results.Processes
import stackbench.runner.stats.Decisions
import stackbench.runner.stats.Look
import stackbench.runner.stats.ProcessRatio
import stackbench.runner.stats.RatioDecision

/**
 * The decision engine: two sides' windows (cells) → one decision, in one place. It counts each window by the one
 * counting rule ([Counting]), groups the counted ones by the app process (JVM) that measured them, and chooses the
 * method the design calls for:
 * - both sides measured by the same JVMs (two endpoints of one app process): paired within each shared process
 *   ([Decisions.SHARED_PROCESSES]), each JVM counted once;
 * - `paired: true` (a suite's choice, made before the run): process k of a against process k of b ([Decisions.paired]);
 * - otherwise independent processes ([Decisions.processes]).
 * Suite comparisons ([stackbench.runner.decide.SuiteDecisions]), `compare` and `gate` (through it) and the findings'
 * verdicts ([stackbench.runner.findings.Verdicts]) all decide here. Pure.
 */
object Engine {
    /** Why a paired comparison of cells without a recorded process cannot pair them. */
    const val UNRECORDED = "a run before processes were recorded has no rounds to pair"

    /** One side as the engine counted it. */
    class Side(
        /** The counted windows' values, grouped by process, in the order their processes first appear. */
        val processes: List<List<Double>>,
        /** The same by round of the plan ([Processes.round]). */
        val rounds: Map<String, List<Double>>,
        /** The same by process identity ([Processes.of]). */
        val byProcess: Map<String, List<Double>>,
        /** Every process that measured this side, counted or not. */
        val allProcesses: Set<String>,
        /** Each window left out, and each process all of whose windows were: "<cell key>: why". */
        val leftOut: List<String>,
        /** Whether every counted window recorded its process. */
        val recorded: Boolean,
    )

    /**
     * A decision with what it rests on: the sides as counted, and the independent JVMs; [steady]: the same read without the
     * windows whose app was flagged still warming, slowing or compiling ([Figure.appStateOf]), null when none was.
     */
    class Decision(
        val ratio: RatioDecision, val a: Side, val b: Side, val sharedProcesses: Boolean, val jvms: Int?,
        val steady: RatioDecision? = null,
        /** The counted windows whose app was flagged, each "<cell key>: flags". */
        val appState: List<String> = emptyList(),
    )

    /** [cells] of one side counted for [figure] ([againstIsolated]: the other side was measured under the lab's isolation). */
    fun side(cells: List<CellResult>, figure: Figure, againstIsolated: Boolean = false): Side {
        val why = cells.associateWith { Counting.leftOut(it, figure, againstIsolated) }
        val counted = cells.filter { why[it] == null }
        val value = { c: CellResult -> Counting.value(c, figure) }
        // a process of several windows, every one left out, is left out as a whole: name it once
        val lostProcesses = cells.filter { Processes.recorded(it) }.groupBy { Processes.of(it) }
            .filter { (_, group) -> group.size > 1 && group.all { why[it] != null } }
            .map { (_, group) -> "process ${group.first().process}: all ${group.size} window(s) left out" }
        val byProcess = counted.groupBy { Processes.of(it) }.mapValues { (_, g) -> g.mapNotNull(value) }.filterValues { it.isNotEmpty() }
        return Side(Processes.grouped(counted, value), Processes.byRound(counted, value), byProcess, cells.map { Processes.of(it) }.toSet(),
            cells.mapNotNull { c -> why[c]?.let { "${c.key}: $it" } } + lostProcesses, counted.all { Processes.recorded(it) })
    }

    /** a ÷ b of [figure] from the sides' cells, against ±[threshold], at [look]; [pairedByRound]: the suite's `paired: true`. */
    fun decide(
        a: List<CellResult>, b: List<CellResult>, figure: Figure, threshold: Double, look: Look = Look.SINGLE,
        pairedByRound: Boolean = false, aAgainstIsolated: Boolean = false, bAgainstIsolated: Boolean = false,
    ): Decision {
        val all = decide(side(a, figure, aAgainstIsolated), side(b, figure, bAgainstIsolated), threshold, look, pairedByRound)
        val flagged = (a + b).filter { Counting.counts(it, figure) && figure.appStateOf(it).isNotEmpty() }
        if (flagged.isEmpty()) return all
        val steady = decide(side(a - flagged.toSet(), figure, aAgainstIsolated), side(b - flagged.toSet(), figure, bAgainstIsolated), threshold, look, pairedByRound).ratio
        return withSteady(all, steady, flagged.map { c -> "${c.key}: ${figure.appStateOf(c).joinToString { it.code }}" })
    }

    /**
     * The decision over every counted window, read again without the windows whose app was flagged ([steady]): it stands
     * where that reading decides nothing or the same relation; where it decides another, the flags decide the answer, and
     * the comparison cannot tell, saying how each reads. The reading without them never makes a decision of its own, so
     * the error stays that of one test. Pure.
     */
    fun withSteady(all: Decision, steady: RatioDecision, flagged: List<String>): Decision {
        val r = all.ratio
        val n = flagged.size
        val reading = "without the $n window(s) whose app was flagged (${flagged.flatMap { it.substringAfter(": ").split(", ") }.distinct().joinToString()}): " +
            "${steady.relation.text}${interval(steady)}"
        val ratio = when {
            !r.decided -> r.copy(why = "${r.why}; $reading")
            steady.decided && steady.relation != r.relation ->
                r.copy(relation = stackbench.runner.stats.Relation.UNDECIDED, why = "over every process ${r.relation.text}${interval(r)}, but $reading: " +
                    "the app's flagged windows decide the answer, so neither reading is it (${r.why})")
            else -> r.copy(why = "${r.why}; $reading")
        }
        return Decision(ratio, all.a, all.b, all.sharedProcesses, all.jvms, steady, flagged)
    }

    private fun interval(d: RatioDecision) = if (d.low != null && d.high != null) " [%.2f–%.2f]".format(java.util.Locale.ROOT, d.low, d.high) else ""

    fun decide(a: Side, b: Side, threshold: Double, look: Look, pairedByRound: Boolean): Decision {
        val recorded = a.recorded && b.recorded
        // one JVM served both sides: its within-JVM ratio is the unit and it counts once; Welch over the processes as if
        // independent would take their shared level for noise on each side (EngineKnownTruthTest: far too wide)
        val shared = a.allProcesses.intersect(b.allProcesses).isNotEmpty()
        val d = when {
            shared -> Decisions.paired(a.byProcess, b.byProcess, threshold, look, Decisions.SHARED_PROCESSES)
            !pairedByRound -> Decisions.processes(a.processes, b.processes, threshold, look)
            recorded -> Decisions.paired(a.rounds, b.rounds, threshold, look)
            else -> Decisions.paired(emptyMap(), emptyMap(), threshold, look).copy(why = "paired by round, but $UNRECORDED")
        }
        val jvms = when (d.method) {
            Decisions.SHARED_PROCESSES -> d.processesA
            Decisions.PAIRED_ROUNDS -> d.processesA?.let { it * 2 }
            else -> (d.processesA ?: 0) + (d.processesB ?: 0)
        }
        val why = (if (recorded) d.why else "${d.why} (${Processes.NOT_RECORDED})") + advice(d.decided, a, b)
        return Decision(d.copy(why = why), a, b, shared, jvms)
    }

    /**
     * What would help an undecided comparison, from what was measured: when processes were lost to flags, that (and
     * that a longer warm-up cap, a lower load or more processes may keep them); when too few were run, how many to set.
     */
    private fun advice(decided: Boolean, a: Side, b: Side): String {
        if (decided) return ""
        if (minOf(a.processes.size, b.processes.size) >= ProcessRatio.MIN_PROCESSES) return ""
        return if (minOf(a.allProcesses.size, b.allProcesses.size) >= ProcessRatio.MIN_PROCESSES) {
            "; ${a.allProcesses.size - a.processes.size} of ${a.allProcesses.size} and ${b.allProcesses.size - b.processes.size} of " +
                "${b.allProcesses.size} processes had no window left (see left out): a longer warm-up cap, a lower load level or more processes may keep them"
        } else "; set processes: ${ProcessRatio.MIN_PROCESSES} or more"
    }
}
