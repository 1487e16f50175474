package stackbench.runner.cell

import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Fixtures
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** What the console prints when a cell ends: its figures, or why it failed and the app's last words. */
class ConsoleProgressTest {
    private val cell = Planner.plan(SuiteParser(MachineFacts(2)).parse(
        "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nrepetitions: 1", "t.yaml")).cells.single()

    private fun printed(block: (ConsoleProgress) -> Unit): String {
        val bytes = ByteArrayOutputStream()
        block(ConsoleProgress(PrintStream(bytes, true), interactive = false))
        return bytes.toString()
    }

    @Test
    fun `a failed start shows the reason and the last lines of the app's log, blank lines dropped`() {
        val log = (1..12).map { "line $it" } + listOf("", "Web server failed to start. Port 41234 was already in use.")
        val failed = Fixtures.cell(cell, CellStatus.FAILED, "the app exited with status 1 before it was ready").copy(logTail = log)
        val text = printed { it.cellStarted(cell, 1, 1); it.cellFinished(cell, failed) }
        assertThat(text).contains("[1/1] ${cell.key}: failed: the app exited with status 1 before it was ready")
        assertThat(text).contains("      | Web server failed to start. Port 41234 was already in use.")
        assertThat(text).contains("      | line 6").doesNotContain("line 5\n")
        assertThat(text.lines().filter { it.startsWith("      | ") }).hasSize(8)
    }

    @Test
    fun `a measured cell shows its figures and no log`() {
        val ok = Fixtures.cell(cell).copy(logTail = listOf("INFO started"))
        val text = printed { it.cellStarted(cell, 1, 1); it.cellFinished(cell, ok) }
        assertThat(text).contains("[1/1] ${cell.key}: 1,000 req/s, p99 10.0 ms, errors 0").doesNotContain("INFO started")
    }
}
