package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.compare.CompareHtml
import stackbench.runner.compare.Comparisons

/** Every string from results is data: a label holding HTML renders as text, in the page and in its embedded JSON. */
class HostileReportTest {
    private val result = ReportFixtures.load(ReportFixtures.HOSTILE)
    private val html = HtmlReport.render(result)
    private val escaped = Html.text(ReportFixtures.HOSTILE_TEXT)

    @Test
    fun `no hostile markup reaches the page as markup`() {
        assertThat(html).doesNotContain("<script>alert(1)", "<img src=x", "onerror=\"window", "<b>bold</b>", "<!-- &amp;")
        assertThat(Regex("<script").findAll(html).count()).isEqualTo(3)
        assertThat(Regex("</script", RegexOption.IGNORE_CASE).findAll(html).count()).isEqualTo(3)
    }

    @Test
    fun `hostile strings render as their own text`() {
        assertThat(escaped).isEqualTo("&lt;script&gt;alert(1)&lt;/script&gt; &quot;quotes&quot; &#39;single&#39; &lt;/script&gt;&lt;!-- &amp;amp; " +
            "&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt; | *md* `tick`")
        // names, labels, flags, reasons, log tails, environment, versions, suite text, searches, ceilings
        for (field in listOf("suite ", "description ", "id-", "tc ", "label ", "endpoint ", "c16 ", "code ", "message ", "latency message ",
            "reason ", "log line ", "problem ", "hostname ", "cpuModel ", "oha ", "law ", "explanation ")) {
            assertThat(html).`as`(field).contains(Html.text(field) + escaped)
        }
        assertThat(html).contains("&lt;/pre&gt;&lt;/details&gt;", "flux &lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt; &quot;q&quot; &amp;amp;")
        assertThat(html).contains("&lt;b&gt;bold&lt;/b&gt;&quot;strategy&quot;")
    }

    @Test
    fun `the embedded JSON holds the hostile strings exactly, escaped for the script element`() {
        val data = html.substringAfter("id=\"sb-data\">").substringBefore("</script>")
        assertThat(data).doesNotContain("<", ">", "&")
        val names = HtmlReportTest.embedded(html).path("charts").values().flatMap { c -> c.path("series").values().map { it.path("name").asString() } }
        assertThat(names).anySatisfy { assertThat(it).startsWith("tc " + ReportFixtures.HOSTILE_TEXT) }
        val titles = HtmlReportTest.embedded(html).path("charts").values().map { it.path("title").asString() }
        assertThat(titles).anySatisfy { assertThat(it).contains("limit</script> 1000") }
    }

    @Test
    fun `summary md shows hostile strings as text and keeps its columns`() {
        val md = MarkdownSummary.render(result)
        assertThat(md).doesNotContain("<script", "<img", "<b>")
        val (keyPart, capacityPart) = md.split("**Capacity**").let { it[0] to it.getOrElse(1) { "" } }
        val key = keyPart.lines().filter { it.startsWith("|") }
        val capacity = capacityPart.lines().filter { it.startsWith("|") }
        assertThat(key).hasSize(2 + 2)
        // a column break is an unescaped pipe
        fun columns(row: String) = Regex("(?<!\\\\)\\|").findAll(row).count()
        assertThat(key.map(::columns).distinct()).containsExactly(11)
        assertThat(capacity.map(::columns).distinct()).containsExactly(7)
    }

    @Test
    fun `compare html escapes too`() {
        val page = CompareHtml.render(Comparisons.of(result, result))
        assertThat(page).doesNotContain("<script>alert(1)", "<img src=x", "onerror=\"window", "<b>bold</b>").contains(escaped)
        // its charts' data and the two scripts that draw them: three script elements, the data escaped for its element
        assertThat(Regex("<script").findAll(page).count()).isEqualTo(3)
        assertThat(page.substringAfter("id=\"sb-data\">").substringBefore("</script>")).doesNotContain("<", ">", "&")
    }
}
