package stackbench.runner.decide

import stackbench.runner.stats.Decisions
import stackbench.runner.stats.RatioDecision
import stackbench.runner.stats.Relation
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * Issue 55, item 3: a flag about the app itself (warming, slowing, unsteady, compiling) counts its window; the decision
 * is read again without such windows, and stands only where that reading does not decide another relation.
 */
class AppStateTest {
    private fun decision(relation: Relation, low: Double?, high: Double?) = RatioDecision(
        (low ?: 1.0 + (high ?: 1.0)) / 2, low, high, null, 6, 6, 0.10, relation, "why", Decisions.PROCESS_MEANS, 3, 3,
    )

    private fun all(relation: Relation, low: Double, high: Double): Engine.Decision {
        val side = Engine.Side(emptyList(), emptyMap(), emptyMap(), emptySet(), emptyList(), true)
        return Engine.Decision(decision(relation, low, high), side, side, false, 6)
    }

    private val flagged = listOf("b/x/r1: unsteady", "b/x/r3: unsteady, warming")

    @Test
    fun `the reading without the flagged windows decides nothing, the decision over every process stands, with that reading in its why`() {
        // a side whose every process was flagged: without them, no interval (the A/A and the 25x service of the issue)
        val d = Engine.withSteady(all(Relation.HIGHER, 20.1, 29.8), decision(Relation.UNDECIDED, null, null), flagged)
        assertThat(d.ratio.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.ratio.why).contains("without the 2 window(s) whose app was flagged (unsteady, warming): cannot tell yet")
        assertThat(d.appState).isEqualTo(flagged)
    }

    @Test
    fun `both readings decide the same relation, it stands`() {
        val d = Engine.withSteady(all(Relation.SAME, 0.96, 1.04), decision(Relation.SAME, 0.95, 1.06), flagged)
        assertThat(d.ratio.relation).isEqualTo(Relation.SAME)
        assertThat(d.steady!!.relation).isEqualTo(Relation.SAME)
    }

    @Test
    fun `the readings decide differently, the flags decide the answer, so the comparison cannot tell and says how each reads`() {
        val d = Engine.withSteady(all(Relation.LOWER, 0.70, 0.85), decision(Relation.SAME, 0.95, 1.05), flagged)
        assertThat(d.ratio.relation).isEqualTo(Relation.UNDECIDED)
        assertThat(d.ratio.why).startsWith("over every process lower [0.70–0.85], but without the 2 window(s) whose app was flagged (unsteady, warming): " +
            "the same within the threshold [0.95–1.05]: the app's flagged windows decide the answer")
    }

    @Test
    fun `the reading without them never decides on its own`() {
        val d = Engine.withSteady(all(Relation.UNDECIDED, 0.85, 1.20), decision(Relation.HIGHER, 1.15, 1.30), flagged)
        assertThat(d.ratio.relation).isEqualTo(Relation.UNDECIDED)
        assertThat(d.ratio.why).contains("higher [1.15–1.30]")
    }
}
