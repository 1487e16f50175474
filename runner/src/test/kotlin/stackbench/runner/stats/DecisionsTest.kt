package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

class DecisionsTest {
    @Test
    fun `clearly higher with three against three is higher`() {
        val d = Decisions.ratio(listOf(150.0, 152.0, 148.0), listOf(100.0, 101.0, 99.0))
        assertThat(d.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.ratio).isEqualTo(1.5)
        assertThat(d.low!!).isGreaterThan(1.1)
        assertThat(d.pValue!!).isLessThan(0.05)
        assertThat(d.decided).isTrue()
        assertThat(d.why).startsWith("interval [").contains("above the band [0.90, 1.10], p = 0.0")
    }

    @Test
    fun `clearly lower with three against three is lower`() {
        val d = Decisions.ratio(listOf(60.0, 61.0, 59.0), listOf(100.0, 101.0, 99.0))
        assertThat(d.relation).isEqualTo(Relation.LOWER)
        assertThat(d.high!!).isLessThan(0.9)
    }

    @Test
    fun `values within 3 % of each other are the same`() {
        val d = Decisions.ratio(listOf(100.0, 102.0, 98.0, 101.0, 99.0), listOf(101.0, 99.0, 100.0, 102.0, 98.0))
        assertThat(d.relation).isEqualTo(Relation.SAME)
        // bootstrap medians are among the values, so the interval cannot pass their extreme ratios
        assertThat(d.low!!).isGreaterThanOrEqualTo(98.0 / 102.0)
        assertThat(d.high!!).isLessThanOrEqualTo(102.0 / 98.0)
        assertThat(d.why).contains("inside the band [0.90, 1.10]")
    }

    @Test
    fun `two values on a side cannot decide`() {
        val d = Decisions.ratio(listOf(150.0, 152.0), listOf(100.0, 101.0, 99.0))
        assertThat(d.relation).isEqualTo(Relation.UNDECIDED)
        assertThat(d.decided).isFalse()
        assertThat(d.ratio).isEqualTo(1.51)
        assertThat(d.low).isNull()
        assertThat(d.why).isEqualTo("2 repetition(s) on one side; an interval needs 3")
    }

    @Test
    fun `wide overlapping spreads are undecided`() {
        val d = Decisions.ratio(listOf(80.0, 130.0, 160.0), listOf(70.0, 110.0, 150.0))
        assertThat(d.relation).isEqualTo(Relation.UNDECIDED)
        assertThat(d.why).contains("crosses an edge of the band")
    }

    @Test
    fun `a zero median on the second side gives no ratio`() {
        val d = Decisions.ratio(listOf(1.0, 2.0, 3.0), listOf(0.0, 0.0, 0.0))
        assertThat(d.relation).isEqualTo(Relation.UNDECIDED)
        assertThat(d.ratio).isNull()
    }

    @ParameterizedTest(name = "{0} claims {1}")
    @CsvSource("1.5, HIGHER", "0.95, SAME", "1.0, SAME", "1.1, SAME", "1.11, HIGHER", "0.5, LOWER", "0.9, SAME", "0.89, LOWER")
    fun `a published ratio claims higher, lower or the same`(published: Double, relation: Relation) {
        assertThat(Decisions.claimed(published)).isEqualTo(relation)
    }

    @Test
    fun `a verdict holds, differs, or cannot tell`() {
        val higher = Decisions.ratio(listOf(150.0, 152.0, 148.0), listOf(100.0, 101.0, 99.0))
        val undecided = Decisions.ratio(listOf(80.0, 130.0, 160.0), listOf(70.0, 110.0, 150.0))
        assertThat(Decisions.verdict(Relation.HIGHER, higher)).isEqualTo(ClaimVerdict.HOLDS)
        assertThat(Decisions.verdict(Relation.SAME, higher)).isEqualTo(ClaimVerdict.DIFFERS)
        assertThat(Decisions.verdict(Relation.HIGHER, undecided)).isEqualTo(ClaimVerdict.CANNOT_TELL)
        assertThat(Decisions.verdict(Relation.HIGHER, higher, disqualified = listOf("the window was still warming")))
            .isEqualTo(ClaimVerdict.CANNOT_TELL)
    }
}
