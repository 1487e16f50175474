package stackbench.runner.decide

import stackbench.runner.results.Fixtures
import stackbench.runner.gate.GateFixtures
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Flag
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class RuleChangeTest {
    private val unsteady = Flag("unsteady", "the warm-up reached its cap (60 s) before the app settled", "throughput")
    private val saturated = Flag("client-bound", "the load generator used its whole CPU", "throughput")

    /** Three processes a side, platform 1,000 and virtual 1,500 req/s, with one suite comparison of them. */
    private fun run(flag: (String) -> List<Flag>) = GateFixtures.run("t-1", "2026-12-06T00:00:00Z").let { r ->
        r.copy(
            cells = r.cells.map { it.copy(flags = flag(it.configKey)) },
            decisions = listOf(Fixtures.decision(name = "virtual vs platform", a = GateFixtures.VIRTUAL, b = GateFixtures.PLATFORM, threshold = 0.10,
                ratio = null, low = null, high = null, pValue = null, nA = 0, nB = 0, relation = "undecided", decided = false, why = "")),
        )
    }

    @Test
    fun `a side whose every window the app flagged had no process before, and is counted and decided now`() {
        val o = RuleChange.of(run { key -> if (key == GateFixtures.VIRTUAL) listOf(unsteady) else emptyList() })
        assertThat(o.windows).isEqualTo(6)
        assertThat(o.leftOutBefore to o.leftOutNow).isEqualTo(3 to 0)
        assertThat(o.comparisons).isEqualTo(1)
        assertThat(o.emptySideBefore to o.emptySideNow).isEqualTo(1 to 0)
        assertThat(o.decidedBefore to o.decidedNow).isEqualTo(0 to 1)
    }

    @Test
    fun `a flag about the instrument leaves its windows out by both rules`() {
        val o = RuleChange.of(run { key -> if (key == GateFixtures.VIRTUAL) listOf(saturated) else emptyList() })
        assertThat(o.leftOutBefore to o.leftOutNow).isEqualTo(3 to 3)
        assertThat(o.emptySideBefore to o.emptySideNow).isEqualTo(1 to 1)
        assertThat(o.decidedBefore to o.decidedNow).isEqualTo(0 to 0)
    }
}
