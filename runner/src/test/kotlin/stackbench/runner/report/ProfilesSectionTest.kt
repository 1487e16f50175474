package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.results.FrameChangeRecord
import stackbench.runner.results.Json
import stackbench.runner.results.ProbeRecord
import stackbench.runner.results.ProfileComparisonRecord
import stackbench.runner.results.ProfileOverheadRecord

class ProfilesSectionTest {
    private val base = ReportFixtures.load(ReportFixtures.SWEEP)

    private val profiled = base.copy(
        cells = base.cells.mapIndexed { i, c ->
            if (i > 0) c else c.copy(probes = mapOf("profile" to ProbeRecord(
                figures = mapOf("samples" to 300.0),
                files = mapOf("flameGraph" to "cells/${c.folder}/profile.html"),
                details = Json.mapper.readTree("""{"mode":"cpu","engine":"async-profiler","event":"cpu","samples":300,"cpuMsPerRequest":1.2,
                    "topSelf":[{"frame":"app.Primes.upTo","samples":90,"share":0.3,"msPerRequest":0.36}],"topTotal":[]}"""),
            )))
        },
        profileComparisons = listOf(ProfileComparisonRecord("webflux vs tomcat", "webflux/x/c8", "tomcat/x/c8", "cpu", perRequest = true, cellsA = 2, cellsB = 2,
            frames = listOf(FrameChangeRecord("io.netty.Thing.run", 0.05, 0.01, 0.04)), files = mapOf("grew" to "profiles/01-w/grew.html"))),
    )

    @Test
    fun `a run without profiles has no such section`() {
        assertThat(HtmlReport.render(base)).doesNotContain("Where the time went")
        assertThat(MarkdownSummary.render(base)).doesNotContain("Where the time went")
    }

    @Test
    fun `each comparison shows its frames per request and links what grew, each cell its flame graph and top frame`() {
        val html = HtmlReport.render(profiled)
        assertThat(html).contains("<a href=\"#profiles\">Where the time went</a>", "<section id=\"profiles\">",
            "<code>io.netty.Thing.run</code>", "+0.0400", "href=\"profiles/01-w/grew.html\"", "CPU ms per request",
            "cpu by async-profiler (cpu), 300 samples", "30.0 %", "0.3600")
        val md = MarkdownSummary.render(profiled)
        assertThat(md).contains("**Where the time went**", "| `io.netty.Thing.run` | 0.0500 | 0.0100 | +0.0400 |", "[what grew](profiles/01-w/grew.html)",
            "top frame `app.Primes.upTo` 30.0 %")
    }

    @Test
    fun `what the profile's mode costs is shown beside it, saying which run and machine measured it`() {
        val elsewhere = ProfileOverheadRecord("cpu", "cpu profile vs none", "cpu/noop/c10", "none/noop/c10", 0.981, 0.962, 1.001, "same", true, 0.05,
            "profile-overhead-20261127T170000Z", "vm", "AMD EPYC")
        val unused = elsewhere.copy(mode = "lock", ratio = 0.99)
        val html = HtmlReport.render(profiled.copy(profileOverhead = listOf(elsewhere, unused)))
        assertThat(html).contains("What a profile costs: cpu profile: throughput 0.98× [0.96–1.00] of the same cell unprofiled (the same within ±5 %), " +
            "measured in run profile-overhead-20261127T170000Z on vm (AMD EPYC), not this run.")
        assertThat(html).`as`("a mode the run did not profile with").doesNotContain("lock profile")
        assertThat(MarkdownSummary.render(profiled.copy(profileOverhead = listOf(elsewhere)))).contains("What a profile costs: cpu profile: throughput 0.98×")
        assertThat(HtmlReport.render(profiled)).doesNotContain("What a profile costs")
    }
}
