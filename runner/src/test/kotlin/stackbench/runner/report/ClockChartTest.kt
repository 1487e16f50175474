package stackbench.runner.report

import stackbench.runner.results.staged
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.results.PrimeRecord
import stackbench.runner.results.SliceRecord
import stackbench.runner.results.WarmupRecord

class ClockChartTest {
    private val base = ReportFixtures.load(ReportFixtures.SWEEP)
    private val cell = base.cells.first { it.window.measured != null }.copy(appStartedBy = null).staged(prime = PrimeRecord("/noop", 1, WarmupRecord(2.0, "cap", null, null, listOf(SliceRecord(1.0, 5000.0, 0.5), SliceRecord(2.0, 6000.0, 0.4))), 0.05),
        warmup = WarmupRecord(3.0, "steady", 1.0, null, listOf(SliceRecord(1.0, 500.0, 0.3), SliceRecord(2.0, 900.0, 0.1), SliceRecord(3.0, 910.0, 0.02))))

    @Test
    fun `priming, warm-up and window follow one another on one clock, with the steady point and why the warm-up ended`() {
        val spec = ClockChart.of(cell, RunView(base), "c")!!
        assertThat(spec.xMarks.map { it.label to it.value }).containsExactly(
            "priming" to 0.0, "warm-up" to 2.0, "steady from" to 3.0, "window (warm-up: steady)" to 5.0)
        val answers = spec.series.first { it.name == "answers/s" }.data
        assertThat(answers.take(4).map { it.x to it.y }).containsExactly(3.0 to 500.0, 4.0 to 900.0, 5.0 to 910.0, 5.0 to null)
        assertThat(answers.drop(4).map { it.x }).allSatisfy { assertThat(it).isGreaterThanOrEqualTo(5.0) }.isNotEmpty()
        assertThat(spec.series.first { it.name.startsWith("priming") }.data.mapNotNull { it.y }).containsExactly(5000.0, 6000.0)
        val jit = spec.series.first { it.rightAxis }
        assertThat(jit.data.mapNotNull { it.y }).containsExactly(50.0, 40.0, 30.0, 10.0, 2.0)
        assertThat(spec.y2).isNotNull()
        assertThat(spec.y.type).`as`("priming's /noop rates span a decade above the cell's").isEqualTo("log")
    }

    @Test
    fun `the clock names how the warm-up went, with its figure`() {
        val steady = ClockChart.of(cell, RunView(base), "c")!!
        assertThat(steady.title).endsWith("(warm-up: settled after 1 s)")
        // a capped warm-up that lost 40 % a minute
        val rng = java.util.Random(1)
        val slices = List(40) { t -> SliceRecord(t + 1.0, 3_000.0 * (1 - 0.4 * t / 60) * (1 + 0.02 * rng.nextGaussian()), 0.01) }
        val falling = ClockChart.of(cell.staged(warmup = WarmupRecord(40.0, "cap", null, null, slices)), RunView(base), "c")!!
        assertThat(falling.title).containsPattern("\\(warm-up: falling \\d+ %/min\\)")
        assertThat(falling.note).startsWith("the warm-up falling at ")
    }

    @Test
    fun `a cell that reused a primed process shows no priming, and one without a warm-up no clock`() {
        val reused = ClockChart.of(cell.copy(appStartedBy = "other"), RunView(base), "c")!!
        assertThat(reused.xMarks.map { it.label }).doesNotContain("priming").first().isEqualTo("warm-up")
        assertThat(reused.series.map { it.name }).noneMatch { it.startsWith("priming") }
        assertThat(ClockChart.of(cell.staged(warmup = null), RunView(base), "c")).isNull()
    }

    @Test
    fun `the compile-first stage sits between priming and warm-up, with its JIT line, so the compilations can be seen to end`() {
        val compiled = cell.staged(compileFirst = WarmupRecord(4.0, "steady", 3.0, null,
            listOf(SliceRecord(1.0, 100.0, 0.5), SliceRecord(2.0, 200.0, 0.2), SliceRecord(3.0, 300.0, 0.0), SliceRecord(4.0, 310.0, 0.0))))
        val spec = ClockChart.of(compiled, RunView(base), "c")!!
        assertThat(spec.xMarks.map { it.label to it.value }).containsExactly(
            "priming" to 0.0, "compiling first (steady)" to 2.0, "warm-up" to 6.0, "steady from" to 7.0, "window (warm-up: steady)" to 9.0)
        assertThat(spec.series.first { it.name.startsWith("compiling first") }.data.mapNotNull { it.y }).containsExactly(100.0, 200.0, 300.0, 310.0)
        // the JIT line runs through all three stages: priming's 50 and 40 %, compile-first's 50, 20, 0 and 0, the warm-up's
        assertThat(spec.series.first { it.rightAxis }.data.mapNotNull { it.y }).containsExactly(50.0, 40.0, 50.0, 20.0, 0.0, 0.0, 30.0, 10.0, 2.0)
        assertThat(spec.series.first { it.name == "answers/s" }.data.first().x).isEqualTo(7.0)
    }
}
