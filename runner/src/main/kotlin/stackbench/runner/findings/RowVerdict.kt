package stackbench.runner.findings

import stackbench.runner.decide.Engine
import stackbench.runner.decide.Figure
import stackbench.runner.results.Flags
import stackbench.runner.stats.ClaimVerdict
import stackbench.runner.stats.RatioDecision
import stackbench.runner.stats.Relation

/** One row's verdict: what it claims, what its repetitions decided, and the flags that kept them from counting. */
data class RowVerdict(
    val comparison: Comparison,
    val row: Row,
    /** The relation the row claims for a ÷ b (without b: measured ÷ published); null: it claims nothing. */
    val claimed: Relation?,
    /** What the repetitions decided; null when a side has no measured value at all. */
    val decision: RatioDecision?,
    /** Disqualifying flags of the cells left out of the row, each once, with the sides that carry it: `unsteady: Tomcat`. */
    val flags: List<String>,
    /** Null: the row claims nothing, so it has no verdict. */
    val verdict: ClaimVerdict?,
    /** Why the row cannot tell, in a few words (empty when it decided). */
    val why: String,
    /** The fewest unflagged measured repetitions on either side (for a row without b: on its one side). */
    val repetitions: Int,
    /** Disqualifying flags that the counted cells' condition waived ([Flags.waived]), each once, with why and the sides that carry it. */
    val waived: List<Waived> = emptyList(),
    /** A row that tests a claim, of a run from before processes were recorded with one JVM a side: it cannot tell until re-run. */
    val notRerun: Boolean = false,
    /** The one-sided test of the row's [Row.size]: null when it claims none. */
    val sizeVerdict: ClaimVerdict? = null,
    /** Among how many rows of its claim's family the look's error was shared when this row settled (Holm's step-down); 1: its own. */
    val share: Int = 1,
    /** The rows of its claim's family (1: a row outside every claim, decided on its own). */
    val family: Int = 1,
    /** Its [Row.size] was written into claims.yaml on a day after its run began: a re-run tests it as fixed before. */
    val sizeAfterRun: Boolean = false,
    /** Flags about the app itself on counted windows ([Flags.APP_STATE]), each once with its sides: `unsteady: Tomcat`. */
    val appState: List<String> = emptyList(),
    /** The decision read without those windows ([Engine.Decision.steady]); null when none carried one. */
    val steady: RatioDecision? = null,
) {
    val decided: Boolean get() = verdict == ClaimVerdict.HOLDS || verdict == ClaimVerdict.DIFFERS
}

/** A disqualifying flag that the cells' condition waived: its code, why, and the sides of a row whose counted cells carry it. */
data class Waived(val code: String, val why: String, val sides: List<String>)

/** A claim's verdict over the rows that test it, by the rule in [Verdicts.claimVerdict]. */
data class ClaimResult(val claim: Claim, val rows: List<RowVerdict>, val verdict: ClaimVerdict) {
    fun count(v: ClaimVerdict) = rows.count { it.verdict == v }

    /** The figures the claim asserts (a claim of more load *and* steadier throughput asserts two) that no row holds in. */
    val figuresWithoutHold: List<Figure> get() = Verdicts.figuresWithoutHold(rows)
}
