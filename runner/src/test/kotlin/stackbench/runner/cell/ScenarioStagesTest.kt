package stackbench.runner.cell

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.probe.WindowFigures
import stackbench.runner.results.Fixtures
import stackbench.runner.results.SecondStat

/** A scenario's warm-up of its own stages recorded from the driver's seconds, and its window's steadiness read from them. */
class ScenarioStagesTest {
    private val warm = Fixtures.load(100.0, model = "scenario").copy(wallSeconds = 6.0,
        perSecond = listOf(10L, 60L, 90L, 100L, 100L, 101L, 0L).mapIndexed { i, n -> SecondStat(i, n, n) })

    @Test
    fun `the warm-up's record, its length, ended by its stages, a slice a second of the driver's successes, the last second, cut by its end, left out`() {
        val r = ScenarioStages.record(warm)
        assertThat(r.endedBy).isEqualTo("stages")
        assertThat(r.seconds).isEqualTo(6.0)
        assertThat(r.slices.map { it.endSeconds }).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
        assertThat(r.slices.map { it.rate }).containsExactly(10.0, 60.0, 90.0, 100.0, 100.0, 101.0)
        assertThat(ScenarioStages.lastRate(r)).isEqualTo((10.0 + 60 + 90 + 100 + 100 + 101) / 6)
    }

    @Test
    fun `a window whose app counts nothing is classed from the driver's seconds, and says so`() {
        val flat = Fixtures.load(100.0, model = "scenario").copy(perSecond = (0 until 20).map { SecondStat(it, 100L + it % 2, 100L + it % 2) })
        val shape = WindowFigures.fromDriver(flat)!!
        assertThat(shape.shape).isEqualTo("flat")
        assertThat(shape.reason).startsWith(WindowFigures.DRIVER_SERIES + "; from the second second on")
        assertThat(WindowFigures.fromDriver(flat.copy(perSecond = emptyList()))).isNull()
    }
}
