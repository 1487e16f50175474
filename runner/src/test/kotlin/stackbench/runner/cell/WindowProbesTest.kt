package stackbench.runner.cell

import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.results.ProbeRecord
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class WindowProbesTest {
    private val target = ProbeTarget(42, jvm = true, dir = Path.of("/r/cells/001-x"), runDir = Path.of("/r"), cellKey = "x")

    private class Counting(override val name: String, private val why: String? = null, private val fail: Boolean = false, private val applies: Boolean = true) : WindowProbe {
        var started = 0
        override fun applies(target: ProbeTarget) = applies
        override fun unavailable(target: ProbeTarget) = why
        override fun windowStarted(target: ProbeTarget) { started++ }
        override fun windowEnded(target: ProbeTarget, window: WindowFacts): ProbeRecord {
            if (fail) error("disk full")
            return ProbeRecord(figures = mapOf("answers" to window.responses.toDouble()), files = mapOf("out" to target.file("out.txt")))
        }
    }

    @Test
    fun `each probe records under its name, files relative to the run's folder`() {
        val probe = Counting("p")
        val records = WindowProbes(listOf(probe)).start(target)!!.also { it.windowStarted() }.end(WindowFacts(10, 0.5))
        assertThat(probe.started).isEqualTo(1)
        assertThat(records.getValue("p").figures).containsEntry("answers", 10.0)
        assertThat(records.getValue("p").files).containsEntry("out", "cells/001-x/out.txt")
    }

    @Test
    fun `a probe that cannot measure the app, or fails, leaves a note and never throws`() {
        val unavailable = Counting("u", why = "not a JVM")
        val failing = Counting("f", fail = true)
        val records = WindowProbes(listOf(unavailable, failing)).start(target)!!.also { it.windowStarted() }.end(WindowFacts(10, null))
        assertThat(unavailable.started).isZero()
        assertThat(records.getValue("u").notes).containsExactly("not a JVM")
        assertThat(records.getValue("f").notes).containsExactly("the probe failed: disk full")
    }

    @Test
    fun `a probe that does not apply to the app records nothing`() {
        val idle = Counting("n", applies = false)
        val records = WindowProbes(listOf(idle)).start(target)!!.also { it.windowStarted() }.end(WindowFacts(10, null))
        assertThat(idle.started).isZero()
        assertThat(records).isEmpty()
    }

    @Test
    fun `without probes there is no window to end`() {
        assertThat(WindowProbes.NONE.start(target)).isNull()
    }
}
