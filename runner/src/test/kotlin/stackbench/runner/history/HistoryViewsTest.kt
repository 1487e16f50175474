package stackbench.runner.history

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.history.HistoryRows.cell
import stackbench.runner.history.HistoryRows.run

class HistoryViewsTest {
    @Test
    fun `a step in throughput is a change point at the first run after it`() {
        val runs = (1..8).map { run(it) }
        val values = listOf(1000.0, 1004.0, 996.0, 1000.0, 702.0, 698.0, 701.0, 699.0)
        val view = HistoryViews.of("t", runs, values.mapIndexed { i, v -> cell(i + 1, v) })
        val change = view.series.single().changes.single()
        assertThat(change.figure).isEqualTo("throughput")
        assertThat(change.runId).isEqualTo("t-5")
        assertThat(change.relative).isBetween(-0.31, -0.29)
        assertThat(HistoryText.changeText(change)).isEqualTo("throughput from run t-5: 1,000 → 700 req/s (-30.0 %)")
    }

    @Test
    fun `steady noise has no change point, and runs without the figure are skipped`() {
        val runs = (1..8).map { run(it) }
        val values = listOf(1000.0, 1004.0, null, 997.0, 1001.0, 1002.0, 998.0, 1003.0)
        val view = HistoryViews.of("t", runs, values.mapIndexed { i, v -> cell(i + 1, v) })
        assertThat(view.series.single().changes).isEmpty()
        assertThat(view.series.single().points).hasSize(8)
    }

    @Test
    fun `what changed between consecutive runs is listed, and nothing when nothing did`() {
        val runs = listOf(run(1, "aaa"), run(2, "aaa"), run(3, "bbb", jdk = "openjdk version \"21.0.8\"", boot = "3.5.8"))
        val changes = HistoryViews.environment(runs)
        assertThat(changes.map { Triple(it.from, it.to, it.what) }).containsExactly(
            Triple("t-2", "t-3", "commit"), Triple("t-2", "t-3", "app JDK"), Triple("t-2", "t-3", "Spring Boot"),
        )
        assertThat(changes.first { it.what == "Spring Boot" }.let { it.before to it.after }).isEqualTo("4.1.1" to "3.5.8")
    }

    @Test
    fun `the text lists runs and figures with intervals, and says when too few runs tell no change`() {
        val view = HistoryViews.of("t", listOf(run(1), run(2)), listOf(cell(1, 1000.0), cell(2, 990.0)))
        val text = HistoryText.render(view)
        assertThat(text).contains("suite t: 2 run(s)", "t-1  2026-11-21 00:00:00Z  t      c1", "25.0.3", "a/b/c1  (a · b · c1)",
            "980 – 1,020", "change points: none can be told from 2 run(s) (needs 4)", "t-1 → t-2: commit c1 → c2")
    }

    @Test
    fun `the page draws each configuration's figures with the report's renderer and escapes what it shows`() {
        // a configuration no run counted gets a note, not two empty charts
        val empty = HistoryHtml.render(HistoryViews.of("t", listOf(run(1)), listOf(cell(1, null, p99 = null))))
        assertThat("No run counted a window of it" in empty).isTrue()
        assertThat("\"h-0-t\"" in empty).isFalse()
        val runs = (1..4).map { run(it, commit = "<b>$it") }
        val html = HistoryHtml.render(HistoryViews.of("t", runs, (1..4).map { cell(it, 1000.0) }))
        // (booleans: a failing assertion on the page itself would print the inlined chart library)
        for (part in listOf("id=\"sb-data\"", "\"h-0-t\"", "\"h-0-p\"", "\"category\"", "<code>&lt;b&gt;1</code>", "Content-Security-Policy")) {
            assertThat(part in html).describedAs("the page has $part").isTrue()
        }
        assertThat("<code><b>1" in html).describedAs("an unescaped commit").isFalse()
        assertThat("\"11-21 00:00\"" in html).describedAs("a run's start on the chart's axis").isTrue()
    }

    @Test
    fun `every history chart carries where its points come from - the suite, the runs and their days, hosts and commits`() {
        val runs = (1..4).map { run(it) }
        val view = HistoryViews.of("t", runs, (1..4).map { cell(it, 1000.0) })
        assertThat(HistoryHtml.provenance(view)).isEqualTo("stackbench history · t · 4 run(s) 2026-11-21 to 2026-11-24 · test · 4 commits")
        assertThat(HistoryHtml.provenance(HistoryViews.of("t", runs.take(2), emptyList()))).endsWith("· commit c1, c2")
        val html = HistoryHtml.render(view)
        assertThat(html.substringAfter("id=\"sb-data\">").substringBefore("</script>")).contains("\"provenance\"", "stackbench history · t")
    }
}
