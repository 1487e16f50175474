package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.util.Random

class SettlingsTest {
    /** A capped warm-up of [seconds] one-second slices at [rate], ±3 % uniform noise. */
    private fun capped(seconds: Int = 60, endedBy: String = "cap", rate: (Int) -> Double): WarmupRecord {
        val rng = Random(3)
        return WarmupRecord(seconds.toDouble(), endedBy, null, null,
            List(seconds) { t -> SliceRecord(t + 1.0, rate(t) * (1 + 0.03 * (2 * rng.nextDouble() - 1)), 0.01, 1.0) })
    }

    private val falling = { t: Int -> 2_948.0 - (2_948.0 - 1_689.0) * t / 59 }

    @Test
    fun `a warm-up the lab ended as steady settled where its steady state began`() {
        val s = Settlings.of(WarmupRecord(20.0, "light", 7.5, null, emptyList()))!!
        assertThat(s.kind).isEqualTo("settled")
        assertThat(s.afterSeconds).isEqualTo(7.5)
        assertThat(s.label()).isEqualTo("settled after 8 s")
        assertThat(s.text).contains("ended light")
    }

    @Test
    fun `a capped warm-up is classed from its slices, with its figure`() {
        val down = Settlings.of(capped(rate = falling))!!
        assertThat(down.kind).isEqualTo("falling")
        assertThat(down.falls).isTrue()
        assertThat(down.perMinute!!).isLessThan(-0.3)
        assertThat(down.high!!).isLessThan(0.0)
        assertThat(down.label()).matches("falling \\d+ %/min")
        val up = Settlings.of(capped { t -> 1_000.0 + 20.0 * t })!!
        assertThat(up.kind).isEqualTo("rising")
        assertThat(up.label()).startsWith("rising ")
        val flat = Settlings.of(capped(endedBy = "flat-at-cap") { 29_500.0 })!!
        assertThat(flat.kind).isEqualTo("settled")
        assertThat(flat.afterSeconds).isNotNull()
        assertThat(Settlings.of(capped(seconds = 8) { 29_500.0 })).`as`("too few slices to class").isNull()
    }

    @Test
    fun `a configuration whose processes fall says how many and how fast, and one that settles says nothing`() {
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: r\napps: [{stack: tomcat}]\nendpoints: [{kind: io, strategies: [completable-future], delay: 100ms}]\nrepetitions: 3", "r.yaml"))
        val cells = plan.cells.mapIndexed { i, c ->
            Fixtures.cell(c).staged(warmup = if (i < 2) capped(rate = falling) else WarmupRecord(20.0, "steady", 12.0, null, emptyList()))
        }
        assertThat(Settlings.byProcess(cells).map { it.second.kind }).containsExactly("falling", "falling", "settled")
        assertThat(Settlings.fallingNote(cells)).startsWith("2 of 3 processes fall through the warm-up, losing ").endsWith("the app slows as it runs")
        assertThat(Settlings.fallingNote(cells.drop(2))).isNull()
        // a record made with its class keeps it
        val recorded = SettlingRecord("oscillating", scatter = 0.2, text = "oscillating")
        assertThat(Settlings.of(cells[0].staged(settling = recorded))).isEqualTo(recorded)
    }
}
