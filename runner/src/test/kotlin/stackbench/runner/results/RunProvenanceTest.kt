package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.report.HtmlReport

class RunProvenanceTest {
    private val run = RunResult(run = Fixtures.info(), environment = Fixtures.environment().copy(
        appJdk = "openjdk version \"25.0.3\" 2026-04-21 LTS", gitCommit = "2beb3f9abcdef0123", gitDirty = true, cpuModel = "Intel(R) Xeon(R) Processor"))

    @Test
    fun `one line says suite, commit with uncommitted changes marked, JDK, CPU and day`() {
        assertThat(RunProvenance.of(run)).isEqualTo("stackbench · t · commit 2beb3f9abc+ · JDK 25.0.3 · Intel(R) Xeon(R) Processor · 2026-11-22")
        assertThat(RunProvenance.of(run.copy(environment = run.environment.copy(gitCommit = null, appJdk = "openjdk 25"))))
            .isEqualTo("stackbench · t · JDK openjdk 25 · Intel(R) Xeon(R) Processor · 2026-11-22")
    }

    @Test
    fun `the report hands it to every chart, which draws it inside itself`() {
        val page = HtmlReport.render(run)
        assertThat(page).containsPattern("\"provenance\"\\s*:\\s*\"stackbench · t · commit 2beb3f9abc\\+ · JDK 25.0.3")
        val script = javaClass.getResource("/stackbench/report/report.js")!!.readText()
        assertThat(script).contains("graphic: data.provenance ?", "text: data.provenance")
    }
}
