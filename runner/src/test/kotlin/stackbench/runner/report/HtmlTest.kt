package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.results.Json

class HtmlTest {
    @Test
    fun `text escapes markup, quotes and entities`() {
        assertThat(Html.text("<script>alert(1)</script> \"q\" 'a' &amp;"))
            .isEqualTo("&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &#39;a&#39; &amp;amp;")
        assertThat(Html.text(null)).isEmpty()
    }

    @Test
    fun `json for a script element has no tag, comment or entity and reads back the same`() {
        val value = mapOf("name" to "</script><script>alert(1)</script><!-- &amp; \u2028")
        val json = Html.json(value)
        assertThat(json).doesNotContain("<", ">", "&", "\u2028")
        assertThat(Json.mapper.readValue(json, Map::class.java)).isEqualTo(value)
    }

    @Test
    fun `an inlined script cannot close its element early`() {
        assertThat(Html.inlineScript("var s = '</script>'; var t = '</SCRIPT >';")).doesNotContainIgnoringCase("</script")
    }

    @Test
    fun `slugs keep only safe characters`() {
        assertThat(Html.slug("cpu · limit</script> 1000")).isEqualTo("cpu-limit-script-1000")
        assertThat(Html.slug("<>")).isEqualTo("x")
    }
}
