package stackbench.runner.probes

import stackbench.runner.probe.ProbeTarget
import stackbench.runner.probe.WindowFacts
import stackbench.runner.probe.WindowProbe
import stackbench.runner.results.ProbeRecord

/**
 * What the emulated round trip itself cost over the window: the CPU time of the relay in front of the app's HTTP port
 * (a namespace host with `rtt:`, host/relay), for every cell whose app sits behind one; figures `cpuMs` and
 * `cpuMsPerRequest`. A relay that runs short of CPU delays its chunks past their due time (its log's lateness line).
 */
class RelayProbe : WindowProbe {
    override val name = "relay"

    /** Every run has it; it applies to the apps behind an emulated round trip. */
    object Kind : ProbeKind {
        override fun probes(run: ProbeContext) = listOf(RelayProbe())
    }
    private var start: Double? = null

    override fun applies(target: ProbeTarget): Boolean = target.relayCpuMs != null

    override fun windowStarted(target: ProbeTarget) {
        start = target.relayCpuMs?.invoke()
    }

    override fun windowEnded(target: ProbeTarget, window: WindowFacts): ProbeRecord {
        val from = start ?: return ProbeRecord(notes = listOf("the relay's CPU time could not be read at the window's start"))
        start = null
        val to = target.relayCpuMs?.invoke() ?: return ProbeRecord(notes = listOf("the relay's CPU time could not be read at the window's end"))
        val cpu = to - from
        return ProbeRecord(figures = mapOf("cpuMs" to cpu, "cpuMsPerRequest" to if (window.responses > 0) cpu / window.responses else null))
    }
}
