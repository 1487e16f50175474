package stackbench.runner.cell

import stackbench.contract.Todos
import stackbench.runner.host.Placement
import stackbench.runner.load.DriveRequest
import stackbench.runner.load.HttpCall
import stackbench.runner.plan.Cell
import stackbench.runner.plan.EndpointCall
import stackbench.runner.suite.LoadLength
import stackbench.runner.sut.Expectations
import stackbench.runner.sut.RunningApp
import java.nio.file.Path

/**
 * One step of a cell ([CellSteps] lists them in order). It reads what earlier steps left in the [CellRun], adds
 * what it measures to the run's record at once (so a later failure keeps it), and returns null to go on, or the
 * [Outcome] that ends the cell early (a failure with its reason, or an interruption). An exception ends it too.
 */
interface CellStep {
    /** How tests and progress name it: `start`, `verify`, `warm up`, `quiet`, `load`, `probe`, `stop`. */
    val name: String

    fun run(run: CellRun): Outcome?
}

/** One cell as it runs: its inputs, what its steps hand on to each other, and the record of what was measured. */
class CellRun(
    val lab: Lab,
    val cell: Cell,
    val ctx: CellContext,
    /** The cell's own folder, `cells/<folder>` in the run's. */
    val dir: Path,
    val record: CellRecord,
    val placement: Placement,
    val clock: PhaseClock,
) {
    /** The app under test, once started (or taken from a session); the stop step stops or keeps it. */
    var app: RunningApp? = null

    /** Time to healthy when this cell started the app; null when it was kept from an earlier cell. */
    var healthyMs: Double? = null

    /** The run's measurement probes for this cell, started with the warm-up (cell/WindowProbes); null without probes or before. */
    var probes: WindowProbes.Window? = null

    /** What the probes measure: this cell's app process, in this cell's folder. */
    fun probeTarget(): stackbench.runner.probe.ProbeTarget {
        val app = started()
        return stackbench.runner.probe.ProbeTarget(app.pid, app.sut.capabilities.jvm, dir, ctx.runDir, cell.key, cell.app.virtualThreads, app.statsUrl, cell.app.name,
            // the relay in front of the app's HTTP port: the first exposure (the one the load goes through), when it is a
            // process of its own that reports its CPU; a direct exposure reports none, and the relay probe then does not apply
            app.exposures.firstOrNull()?.takeIf { it.cpuMs() != null }?.let { relay -> { relay.cpuMs() } }, cell.window)
    }

    /** The app's own rate over the warm-up's last slices (null without one): the window's length follows it. */
    var warmRate: Double? = null

    /** The load driver, made ready (found, or installed) when a step first needs it. */
    val driver: ReadyDriver by lazy { lab.driver(cell.load.settings.driver) }

    /** The driver's threads: the suite's, else one per CPU the driver has. */
    val threads: Int get() = cell.load.settings.threads ?: placement.driverCpuCount(lab.machineCpus)

    val expectations = Expectations(lab.json)

    fun started(): RunningApp = app ?: error("no app was started for ${cell.key}")

    /** Why a cell failed whose app is gone: its exit code, and what 137 (SIGKILL) most likely was; [phase] null: the step is not known. */
    fun exited(phase: String?): Outcome.Failed {
        val app = started()
        val code = app.process?.process?.exitValue()
        val tail = app.logTail()
        return Outcome.Failed("the app exited${phase?.let { " during the $it" } ?: ""} (exit code $code" +
            (if (code == 137) ": killed, with a memory limit most likely by the OOM killer" else "") +
            (if (code != 137 && tail.any { "OutOfMemoryError" in it }) ": out of memory, java.lang.OutOfMemoryError in its log" else "") + ")", tail)
    }

    fun body(call: EndpointCall = cell.endpoint): String? = call.http?.body ?: call.body?.let { lab.json.writeValueAsString(it) }

    fun credentials(call: EndpointCall = cell.endpoint) = if (call.needsCredentials) Todos.USER to Todos.PASSWORD else null

    /** The cell's own request as a load phase of [length], its output in [out]. */
    fun request(out: Path, length: LoadLength, shape: stackbench.runner.plan.LoadShape = cell.load.shape): DriveRequest = DriveRequest(
        // fed or mixed requests fill their own paths as they are sent: the URL gives the app's address
        url = started().at(if (cell.endpoint.http?.traffic != null) "/" else cell.endpoint.path),
        method = cell.endpoint.method,
        body = body(),
        basicAuth = credentials(),
        shape = shape,
        length = length,
        timeout = cell.load.settings.timeout,
        threads = threads,
        outputDir = out,
        expectedStatus = expectations.expectedStatus(cell.endpoint),
        headers = cell.endpoint.http?.headers.orEmpty(),
        scenarioCalls = (cell.load.shape as? stackbench.runner.plan.LoadShape.Scenario)?.let { s -> s.calls.zip(s.scenario.steps) }.orEmpty().map { (call, step) ->
            HttpCall(started().at(call.path), call.method, body(call), credentials(call), expectations.expectedStatus(call), call.http?.headers.orEmpty(), step.name)
        },
        traffic = cell.endpoint.http?.traffic,
    )
}
