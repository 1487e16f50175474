package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

class DecisionsTest {
    @ParameterizedTest(name = "{0} claims {1}")
    @CsvSource("1.5, HIGHER", "0.95, SAME", "1.0, SAME", "1.1, SAME", "1.11, HIGHER", "0.5, LOWER", "0.9, SAME", "0.89, LOWER")
    fun `a published ratio claims higher, lower or the same`(published: Double, relation: Relation) {
        assertThat(Decisions.claimed(published)).isEqualTo(relation)
    }

    @Test
    fun `a verdict holds, differs, or cannot tell`() {
        val higher = Decisions.processes(listOf(150.0, 152.0, 148.0).map { listOf(it) }, listOf(100.0, 101.0, 99.0).map { listOf(it) })
        val undecided = Decisions.processes(listOf(80.0, 130.0, 160.0).map { listOf(it) }, listOf(70.0, 110.0, 150.0).map { listOf(it) })
        assertThat(Decisions.verdict(Relation.HIGHER, higher)).isEqualTo(ClaimVerdict.HOLDS)
        assertThat(Decisions.verdict(Relation.SAME, higher)).isEqualTo(ClaimVerdict.DIFFERS)
        assertThat(Decisions.verdict(Relation.HIGHER, undecided)).isEqualTo(ClaimVerdict.CANNOT_TELL)
        assertThat(Decisions.verdict(Relation.HIGHER, higher, disqualified = listOf("the window was still warming")))
            .isEqualTo(ClaimVerdict.CANNOT_TELL)
    }
}
