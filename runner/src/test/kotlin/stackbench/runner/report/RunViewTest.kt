package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class RunViewTest {
    @Test
    fun `a connection sweep is one panel with connections on the x axis and a group per level`() {
        val view = RunView(ReportFixtures.load(ReportFixtures.SWEEP))
        assertThat(view.configs).hasSize(4)
        assertThat(view.repetitions).isEqualTo(2)
        assertThat(view.panels).hasSize(1)
        val panel = view.panels.single()
        assertThat(panel.x!!.id).isEqualTo("connections")
        assertThat(panel.xValues).containsExactly(8.0, 64.0)
        assertThat(panel.series.map(panel::label)).containsExactly("tomcat-platform", "webflux")
        assertThat(panel.groups.map { it.title }).containsExactly(
            "cpu · limit 2000 · closed model · 8 connections", "cpu · limit 2000 · closed model · 64 connections")
        val failed = view.configs.single { it.failed.isNotEmpty() }
        assertThat(failed.key).isEqualTo("webflux/cpu-direct-limit2000/c64")
        assertThat(failed.throughput!!.n).isEqualTo(1)
    }

    @Test
    fun `an open-model rate sweep puts the offered rate on the x axis and labels the latency as corrected`() {
        val panel = RunView(ReportFixtures.load(ReportFixtures.SYNTHETIC)).panels.single()
        assertThat(panel.x!!.id).isEqualTo("rate")
        assertThat(panel.xValues).containsExactly(500.0, 1000.0)
        assertThat(panel.latencyKind).startsWith("open-model")
    }

    @Test
    fun `nothing swept gives one group, and two strategies name each line by app and strategy`() {
        val view = RunView(ReportFixtures.load(ReportFixtures.HOSTILE))
        val panel = view.panels.single()
        assertThat(panel.x).isNull()
        assertThat(panel.groups).hasSize(1)
        assertThat(panel.series.map(panel::label)).allSatisfy { assertThat(it).contains(" · ") }
        assertThat(view.repetitionsText).isEqualTo("1 to 2 repetitions")
    }

    @Test
    fun `each app configuration keeps one colour and symbol, colour-blind safe`() {
        val view = RunView(ReportFixtures.load(ReportFixtures.SWEEP))
        assertThat(view.style("tomcat-platform")).isEqualTo(Palette.Style("#0072B2", "circle"))
        assertThat(view.style("webflux")).isEqualTo(Palette.Style("#E69F00", "rect"))
        assertThat(Palette.colors).doesNotContain("#F0E442")
        assertThat((0 until 14).map(Palette::style).distinct()).hasSize(14)
    }
}
