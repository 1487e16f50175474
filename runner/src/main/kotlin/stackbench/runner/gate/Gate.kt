package stackbench.runner.gate

import stackbench.runner.stats.Relation
import stackbench.runner.compare.Comparisons
import stackbench.runner.compare.Difference
import stackbench.runner.decide.RunPairs
import stackbench.runner.report.Decided
import stackbench.runner.results.CellStatus
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.RunResult
import stackbench.runner.results.Settlings
import stackbench.runner.stats.ProcessRatio
import stackbench.runner.suite.SuiteComparison

/** A cell's outcome at the gate. */
enum class GateVerdict(val text: String) {
    SLOWER("slower"),
    FASTER("faster"),
    SAME("the same within the threshold"),
    UNDECIDED("cannot tell"),
}

/**
 * How the gate ended: passed, failed on a slower cell, failed on an undecided one when the team asked every
 * configuration to be decided (`--fail-on-undecided`), or refused because the runs cannot be compared.
 */
enum class GateOutcome { PASSED, SLOWER, UNDECIDED, CANNOT_COMPARE }

/**
 * One configuration at the gate: current ÷ baseline of throughput and of p99, each decided by the suite comparisons'
 * own rules ([RunPairs], [stackbench.runner.decide.SuiteDecisions]); slower when throughput is decided lower or p99 decided higher beyond the threshold.
 */
data class GateCell(
    val configKey: String, val throughput: DecisionRecord, val p99: DecisionRecord, val verdict: GateVerdict, val why: String,
    /** How each run's processes of this configuration went over their warm-ups ([Settlings.perProcess]); null when none is classed. */
    val warmupBaseline: String? = null,
    val warmupCurrent: String? = null,
)

data class GateResult(
    val baseline: RunResult,
    val current: RunResult,
    val threshold: Double,
    val cells: List<GateCell>,
    val outcome: GateOutcome,
    /** Why the runs cannot be compared, or which cells are slower: one line. */
    val reason: String,
    val differences: List<Difference>,
    val onlyBaseline: List<String>,
    val onlyCurrent: List<String>,
)

/**
 * The regression gate: the current run against a baseline, configuration by configuration (matched by configuration
 * key), with the decision code of the suite comparisons ([RunPairs], the process as the unit of replication):
 * a ratio current ÷ baseline, its interval and the exact rank test, placed against the band ±threshold. Pure.
 *
 * The runs cannot be compared when their suites differ, when no configuration is in both, or when no configuration
 * has the two app processes a side an interval needs ([ProcessRatio.MIN_PROCESSES]) in both runs.
 */
object Gate {
    const val CURRENT = RunPairs.LATER
    const val BASELINE = RunPairs.EARLIER

    /**
     * [failOnUndecided]: a configuration that cannot be told fails the gate ([GateOutcome.UNDECIDED]) instead of
     * passing it; the team's choice (docs/ci.md), off by default.
     */
    fun decide(baseline: RunResult, current: RunResult, threshold: Double, failOnUndecided: Boolean = false): GateResult {
        require(threshold >= 0 && threshold < 1) { "threshold must be in [0, 1), not $threshold" }
        val comparison = Comparisons.of(baseline, current)
        fun result(cells: List<GateCell>, outcome: GateOutcome, reason: String) =
            GateResult(baseline, current, threshold, cells, outcome, reason, comparison.differences, comparison.onlyA, comparison.onlyB)
        if (baseline.run.suite != current.run.suite) {
            return result(emptyList(), GateOutcome.CANNOT_COMPARE,
                "different suites: the baseline ran '${baseline.run.suite}' (${baseline.run.id}), the current run '${current.run.suite}' (${current.run.id})")
        }
        val keys = RunPairs.common(baseline, current)
        if (keys.isEmpty()) {
            return result(emptyList(), GateOutcome.CANNOT_COMPARE,
                "no matching cells: no configuration of ${current.run.id} is in ${baseline.run.id}")
        }
        val decided = keys.map { key ->
            val (throughput, p99) = RunPairs.decide(baseline, current, key, listOf(SuiteComparison.THROUGHPUT, "p99"), threshold)
            cell(key, throughput, p99).copy(warmupBaseline = warmup(baseline, key), warmupCurrent = warmup(current, key))
        }
        val slower = decided.filter { it.verdict == GateVerdict.SLOWER }
        if (slower.isNotEmpty()) return result(decided, GateOutcome.SLOWER, "${slower.size} of ${decided.size} configuration(s) slower beyond ${pct(threshold)}: " +
            slower.joinToString("; ") { "${it.configKey} (${it.why})" })
        if (decided.none { enough(it.throughput) || enough(it.p99) }) {
            return result(decided, GateOutcome.CANNOT_COMPARE, "too few processes to decide: no configuration has ${ProcessRatio.MIN_PROCESSES} app processes " +
                "a side in both runs (" + decided.joinToString("; ") { "${it.configKey}: ${it.throughput.decision.processesB ?: 0} in the baseline, ${it.throughput.decision.processesA ?: 0} now" } +
                "); set processes: ${ProcessRatio.MIN_PROCESSES} or more in the suite")
        }
        val undecided = decided.count { it.verdict == GateVerdict.UNDECIDED }
        if (failOnUndecided && undecided > 0) {
            return result(decided, GateOutcome.UNDECIDED, "$undecided of ${decided.size} configuration(s) undecided, and --fail-on-undecided asks each " +
                "to be decided: " + decided.filter { it.verdict == GateVerdict.UNDECIDED }.joinToString("; ") { "${it.configKey} (${it.why})" })
        }
        return result(decided, GateOutcome.PASSED, "no configuration slower beyond ${pct(threshold)} (${decided.size} compared" +
            (if (undecided > 0) ", $undecided undecided" else "") + ")")
    }

    private fun warmup(run: RunResult, key: String) = Settlings.perProcess(run.cells.filter { it.configKey == key && it.status == CellStatus.OK })

    private fun enough(d: DecisionRecord) = (d.decision.processesA ?: 0) >= ProcessRatio.MIN_PROCESSES && (d.decision.processesB ?: 0) >= ProcessRatio.MIN_PROCESSES

    private fun cell(key: String, throughput: DecisionRecord, p99: DecisionRecord): GateCell {
        val slowerThroughput = throughput.decided && throughput.decision.relation == Relation.LOWER
        val slowerP99 = p99.decided && p99.decision.relation == Relation.HIGHER
        val verdict = when {
            slowerThroughput || slowerP99 -> GateVerdict.SLOWER
            !throughput.decided -> GateVerdict.UNDECIDED
            throughput.decision.relation == Relation.HIGHER -> GateVerdict.FASTER
            else -> GateVerdict.SAME
        }
        val why = listOfNotNull(
            "throughput ${ratio(throughput)}: ${throughput.decision.why}".takeIf { slowerThroughput || !slowerP99 },
            "p99 ${ratio(p99)}: ${p99.decision.why}".takeIf { slowerP99 },
        ).joinToString("; ")
        return GateCell(key, throughput, p99, verdict, why)
    }

    /** current ÷ baseline with its interval, in the words every view uses ([Decided]). */
    fun ratio(d: DecisionRecord): String = if (d.decision.ratio == null) "–" else Decided.ratio(d) + Decided.interval(d)

    fun pct(x: Double): String = java.math.BigDecimal(x * 100).round(java.math.MathContext(6)).stripTrailingZeros().toPlainString() + " %"
}
