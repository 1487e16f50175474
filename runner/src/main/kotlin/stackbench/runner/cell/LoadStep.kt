package stackbench.runner.cell

import oshi.hardware.CentralProcessor
import oshi.software.os.OperatingSystem
import stackbench.runner.plan.LoadShape
import stackbench.runner.plan.WindowRule
import stackbench.runner.probe.CompilerThreads
import stackbench.runner.probe.CpuSteal
import stackbench.runner.probe.PaceCanary
import stackbench.runner.probe.ProcReader
import stackbench.runner.probe.Sampler
import stackbench.runner.probe.StatsChannel
import stackbench.runner.suite.LoadLength

/**
 * Load: the measured window, the driver on its own CPUs while [Sampler] reads the app's process, its cgroup, its
 * own counter and the driver's CPU. In: the app, the driver, the warm-up's rate. Out: the driver's figures, the
 * samples, the window (when it opened, how long, the cgroup's counters at both ends), the sampler's own CPU, the
 * machine's pace beside the window ([PaceCanary], and the steal on the app's and the driver's CPUs: [CpuSteal]), the JIT compiler threads' CPU over it, and the planned window when
 * it was lengthened. An app that died in the window fails the cell, its figures kept.
 */
class LoadStep(private val os: OperatingSystem, private val processor: CentralProcessor) : CellStep {
    override val name = "load"

    /** Steal on the app's CPUs (every CPU when it shares them; unknown for an app the lab did not start) and on the driver's since [start]; null unread. */
    private fun steal(start: Map<Int, LongArray>?, run: CellRun): Pair<Double?, Double?>? {
        val end = CpuSteal.read(processor) ?: return null
        if (start == null) return null
        val all = (0 until run.lab.machineCpus).toList()
        val placement = run.placement
        val appCpus = placement.appCpus.ifEmpty { all }.takeIf { run.started().sut.capabilities.process }
        return appCpus?.let { CpuSteal.share(start, end, it) } to CpuSteal.share(start, end, placement.driverCpus.ifEmpty { all })
    }

    override fun run(run: CellRun): Outcome? {
        val (lab, cell, app) = Triple(run.lab, run.cell, run.started())
        val record = run.record
        run.ctx.listener.phase(cell, "measuring")
        val phase = LoadPhase(lab.hosts.load, lab.isolation)
        val confinement = app.confinement
        // the app's process where the lab started one: none to read for a system it did not start, whose figures stay unknown
        val sampler = Sampler(app.pid?.let { ProcReader(os, it.toInt()) }, { confinement.counters() }, app.statsUrl?.let { StatsChannel(it, lab.json) }, phase::driverCpuMs)
        run.ctx.listener.measuring(cell, sampler)
        sampler.sampleNow()
        sampler.start()
        val canary = PaceCanary().also { it.start() }
        // a JVM without the stats channel (an own jar) still publishes its JIT, GC and class counters: read them at the window's edges
        val perf = app.statsUrl == null && app.sut.capabilities.jvm
        val perfStart = if (perf) app.pid?.let { stackbench.runner.probe.PerfData.counters(it) } else null
        val stealStart = CpuSteal.read(processor)
        // compiler threads are a HotSpot JVM's: a command's process has none to read, and records unknown
        val compiler = app.pid?.takeIf { app.sut.capabilities.jvm }?.let { CompilerThreads(os, it.toInt()) }
        val compilerStart = compiler?.cpuMs()
        val cgroupStart = confinement.counters()
        val probes = (run.probes ?: run.ctx.probes.start(run.probeTarget()))?.also { it.windowStarted() }
        val windowStart = System.currentTimeMillis()
        var responses = 0L
        val measured = try {
            phase.run(run.driver.driver, run.driver.executable, run.request(run.dir.resolve("measured"), windowLength(run)),
                run.placement.driverCpus, "${run.ctx.groupPrefix}-${cell.index}-driver", cell.load.settings.instances).also { responses = it.responses }
        } finally {
            runCatching { sampler.sampleNow() } // a reading after the window closed, so its last second has both edges
            record.raw = sampler.stop()
            record.pace = run.ctx.pace.place(canary.stop())?.let { pace -> steal(stealStart, run)?.let { (app, driver) -> pace.copy(appCpuSteal = app, driverCpuSteal = driver) } ?: pace }
            record.compilerCpuMs = compilerStart?.let { a -> compiler?.cpuMs()?.let { it - a } }
            record.samplerCpuMs = sampler.ownCpuNanos / 1e6
            // every probe ends its recording, a failed window's too
            probes?.let { record.probes = it.end(stackbench.runner.probe.WindowFacts(responses, windowCpuMsPerRequest(record, responses))) }
        }
        record.window = MeasuredWindow(windowStart, (measured.wallSeconds * 1000).toLong(), cgroupStart, confinement.counters())
        record.measured = measured
        if (perfStart != null) record.perfWindow = perfWindow(perfStart, app.pid?.let { stackbench.runner.probe.PerfData.counters(it) }, record, measured.responses)
        run.clock.mark("measured")
        // an app that died in the window (the memory limit's OOM killer, a crash) answered with refused
        // connections: its figures are kept, but the cell failed
        if (!app.isAlive()) return run.exited("measured window")
        // a window without answers (every request past its deadline, refused...) measured nothing: the cell failed
        stackbench.runner.results.Unanswered.failure(measured, run.expectations.expectedStatus(cell.endpoint))
            ?.let { return Outcome.Failed(it, app.logTail(20)) }
        return null
    }

    /** The JVM's own figures over the window from its perf-data file, as the stats channel would give them; its CPU from the sampler. */
    private fun perfWindow(a: stackbench.runner.probe.JvmCounters, b: stackbench.runner.probe.JvmCounters?, record: CellRecord, responses: Long): stackbench.runner.results.JvmWindow? {
        b ?: return null
        fun d(x: Double?, y: Double?) = if (x != null && y != null) (y - x).toLong() else null
        val cpu = record.raw.mapNotNull { it.process?.cpuMs }.let { if (it.size >= 2) it.last() - it.first() else null }
        return stackbench.runner.results.JvmWindow(
            compilationMs = d(a.jitTimeMs, b.jitTimeMs),
            gcMs = d(a.gcTimeMs, b.gcTimeMs),
            classesLoaded = if (a.classesLoaded != null && b.classesLoaded != null) b.classesLoaded!! - a.classesLoaded!! else null,
            cpuMsPerRequest = if (cpu != null && responses > 0) cpu / responses else null,
        )
    }

    /** The app process's CPU per answer over the window, from the sampler's first and last readings; null unread. */
    private fun windowCpuMsPerRequest(record: CellRecord, responses: Long): Double? =
        record.raw.mapNotNull { it.process?.cpuMs }.let { if (it.size >= 2 && responses > 0) (it.last() - it.first()) / responses else null }

    /**
     * The measured window's length: the plan's, lengthened for a closed model to hold enough round trips per
     * connection at the warm-up's rate ([WindowRule]), but never past the suite's `duration-max`, or else its own
     * (unscaled) length: `--scale` shortens a window, never below what counts.
     */
    private fun windowLength(run: CellRun): LoadLength {
        val planned = run.cell.load.settings.length
        val shape = run.cell.load.shape
        if (planned !is LoadLength.Timed || shape !is LoadShape.Closed) return planned
        val length = WindowRule.length(planned.duration, run.cell.load.windowCap ?: planned.duration, shape.connections, run.warmRate)
        if (length != planned.duration) run.record.plannedWindowMs = planned.duration.toMillis()
        return LoadLength.Timed(length)
    }
}
