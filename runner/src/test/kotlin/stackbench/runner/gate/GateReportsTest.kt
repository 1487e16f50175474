package stackbench.runner.gate

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.w3c.dom.Element
import stackbench.runner.gate.GateFixtures.PLATFORM
import stackbench.runner.gate.GateFixtures.VIRTUAL
import stackbench.runner.gate.GateFixtures.run
import javax.xml.parsers.DocumentBuilderFactory

class GateReportsTest {
    private val baseline = run("t-1", "2026-11-27T01:00:00Z")

    private fun parse(xml: String): Element =
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.byteInputStream()).documentElement

    private fun cases(root: Element): List<Element> = root.getElementsByTagName("testcase").let { l -> (0 until l.length).map { l.item(it) as Element } }

    @Test
    fun `the JUnit report has one test case per configuration, a failure for the slower one`() {
        val g = Gate.decide(baseline, run("t-2", "2026-11-27T02:00:00Z", scale = mapOf(PLATFORM to 0.7)), 0.05)
        val root = parse(GateJunit.render(g))
        assertThat(root.tagName).isEqualTo("testsuite")
        assertThat(root.getAttribute("tests")).isEqualTo("2")
        assertThat(root.getAttribute("failures")).isEqualTo("1")
        assertThat(root.getAttribute("skipped")).isEqualTo("0")
        val byName = cases(root).associateBy { it.getAttribute("name") }
        assertThat(byName.keys).containsExactlyInAnyOrder(PLATFORM, VIRTUAL)
        val failure = byName.getValue(PLATFORM).getElementsByTagName("failure").item(0) as Element
        assertThat(failure.getAttribute("message")).isEqualTo("slower beyond ±5 %")
        assertThat(failure.textContent).contains("throughput 0.70×")
        assertThat(byName.getValue(VIRTUAL).getElementsByTagName("failure").length).isZero()
    }

    @Test
    fun `undecided configurations are skipped, and runs that cannot be compared are an error`() {
        val g = Gate.decide(run("t-1", "2026-11-27T01:00:00Z", processes = 1), run("t-2", "2026-11-27T02:00:00Z", processes = 1), 0.05)
        val root = parse(GateJunit.render(g))
        assertThat(root.getAttribute("skipped")).isEqualTo("2")
        assertThat(root.getAttribute("errors")).isEqualTo("1")
        assertThat(root.getAttribute("tests")).isEqualTo("3")
        val error = cases(root).single { it.getElementsByTagName("error").length == 1 }
        assertThat((error.getElementsByTagName("error").item(0) as Element).getAttribute("message")).startsWith("too few processes")
    }

    @Test
    fun `names that XML would choke on are escaped`() {
        val current = run("t-2", "2026-11-27T02:00:00Z").let { r -> r.copy(cells = r.cells.map { it.copy(configKey = it.configKey + "/<&\"'>") }) }
        val base = baseline.let { r -> r.copy(cells = r.cells.map { it.copy(configKey = it.configKey + "/<&\"'>") }) }
        val root = parse(GateJunit.render(Gate.decide(base, current, 0.05)))
        assertThat(cases(root).map { it.getAttribute("name") }).contains("$PLATFORM/<&\"'>")
    }

    @Test
    fun `the Markdown summary heads with the outcome and tables every configuration`() {
        val md = GateMarkdown.render(Gate.decide(baseline, run("t-2", "2026-11-27T02:00:00Z", scale = mapOf(PLATFORM to 0.7), commit = "bbbbbbb"), 0.05))
        assertThat(md.lines().first()).isEqualTo("## stackbench gate: ❌ slower")
        assertThat(md).contains("| `$PLATFORM` | ❌ slower |", "| `$VIRTUAL` | ✅ the same within the threshold |", "| git commit | aaaaaaa | bbbbbbb |")
        val table = md.lines().filter { it.startsWith("| `") }
        assertThat(table).hasSize(2).allSatisfy { assertThat(it.count { c -> c == '|' }).isEqualTo(8) }
    }
}
