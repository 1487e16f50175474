package stackbench.runner.cell

import stackbench.runner.ceiling.Ceilings
import stackbench.runner.host.Placement
import stackbench.runner.isolation.CgroupCounters
import stackbench.runner.plan.Cell
import stackbench.runner.plan.LoadShape
import stackbench.runner.probe.RawSample
import stackbench.runner.probe.ResourceSummaries
import stackbench.runner.probe.Sampler
import stackbench.runner.probe.WindowFigures
import stackbench.runner.results.AppRecord
import stackbench.runner.results.CeilingRecord
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.EndpointRecord
import stackbench.runner.results.Flags
import stackbench.runner.results.GcPause
import stackbench.runner.results.LoadRecord
import stackbench.runner.results.LoadResult
import stackbench.runner.results.ProfileRecord
import stackbench.runner.results.ResourcesRecord
import stackbench.runner.results.StartRecord
import stackbench.runner.results.StartupResult
import stackbench.runner.results.SystemRecord
import stackbench.runner.results.VerificationResult
import stackbench.runner.results.WarmupStage
import stackbench.runner.results.WindowStage
import stackbench.runner.suite.Defaults
import stackbench.runner.suite.LoadLength
import tools.jackson.databind.JsonNode
import java.nio.file.Files
import java.nio.file.Path
import java.time.Instant
import kotlin.io.path.isRegularFile
import kotlin.io.path.relativeTo

/** How a cell ended. */
sealed interface Outcome {
    data object Ok : Outcome
    data object Interrupted : Outcome
    data class Failed(val reason: String, val logTail: List<String>) : Outcome
}

/** The measured window: when it opened (epoch ms), how long it was, and the app cgroup's counters at both ends. */
data class MeasuredWindow(val startEpochMs: Long, val lengthMs: Long, val cgroupStart: CgroupCounters?, val cgroupEnd: CgroupCounters?)

/** What a cell has gathered so far; becomes a [CellResult] however the cell ended, keeping everything measured. */
class CellRecord(private val cell: Cell, private val lab: Lab, private val runDir: Path, private val dir: Path) {
    var command: List<String> = emptyList()
    var runtime: stackbench.runner.results.RuntimeRecord? = null
    var info: JsonNode? = null
    var startup: StartupResult? = null
    var verification: VerificationResult? = null
    var idle: stackbench.runner.results.IdleProbe? = null
    val warmupSteps = mutableListOf<Double>()
    var quietAfterWarmupMs: Long? = null
    var measured: LoadResult? = null
    var window: MeasuredWindow? = null
    var raw: List<RawSample> = emptyList()
    /** The app's GC pauses from its GC log; null when it has none (not a JVM the lab started). */
    var gcPauses: List<GcPause>? = null
    var samplerCpuMs: Double? = null
    /** The cell whose app this one reused (restart: app), or null when it started its own. */
    var reusedFrom: String? = null
    var warmupRecord: stackbench.runner.results.WarmupRecord? = null
    /** The `compile-first` stage before the warm-up: the cell's own request at one connection until the JIT was quiet. */
    var compileFirst: stackbench.runner.results.WarmupRecord? = null
    /** The warm-up's second stage on new connections (`warmup-reconnect`). */
    var warmupAgain: stackbench.runner.results.WarmupRecord? = null
    var prime: stackbench.runner.results.PrimeRecord? = null
    /** The window the plan asked for, when it was lengthened to hold enough round trips. */
    var plannedWindowMs: Long? = null
    /** The machine's pace beside the measured window, placed against the run's calmest. */
    var pace: stackbench.runner.results.PaceReading? = null
    /** The JIT compiler threads' CPU time over the measured window, ms. */
    var compilerCpuMs: Double? = null
    /** An own JVM's figures over the window from its perf-data file, where it has no stats channel. */
    var perfWindow: stackbench.runner.results.JvmWindow? = null
    /** What each measurement probe recorded over the window (cell/WindowProbes). */
    var probes: Map<String, stackbench.runner.results.ProbeRecord> = emptyMap()
    /** Where the app's stats channel threads ran, in words. */
    var statsThreads: String? = null
    private val startedAt = Instant.now()

    fun build(outcome: Outcome, clock: PhaseClock, placement: Placement): CellResult {
        val w = window
        val samples = Sampler.toSamples(raw, w?.startEpochMs ?: raw.firstOrNull()?.epochMs ?: 0)
        val allotted = cell.profile.allottedCpus(lab.machineCpus)
        val driverCpus = placement.driverCpuCount(lab.machineCpus).toDouble()
        val resources = w?.let {
            ResourceSummaries.of(samples, it.lengthMs, allotted, driverCpus, it.cgroupStart, it.cgroupEnd, gcPauses, it.startEpochMs)
                .copy(samplerCpuMs = samplerCpuMs)
        }
        val status = when (outcome) {
            Outcome.Ok -> CellStatus.OK
            Outcome.Interrupted -> CellStatus.INTERRUPTED
            is Outcome.Failed -> CellStatus.FAILED
        }
        // a system the lab did not start (a url: app) was neither placed, limited nor sampled: its cells say so
        val sut = stackbench.runner.sut.SystemUnderTest.of(cell.app, lab.home)
        val isolated = sut.capabilities.process
        val isolation = if (isolated) lab.isolation.kind else Flags.NO_ISOLATION
        val app = appRecord()
        val endpoint = endpointRecord()
        val load = loadRecord(placement)
        val shape = resources?.let { WindowFigures.shape(it.serverPerSecond, measured, cell.load.shape is LoadShape.Closed, plannedWindowMs) }
            // a scenario on an app without a counter of its own: its steadiness from the load generator's answers a second
            ?: measured?.takeIf { cell.load.shape is LoadShape.Scenario }?.let(WindowFigures::fromDriver)
        val jvm = if (w != null) (WindowFigures.jvm(raw, cell.endpoint.path.substringBefore('?')) ?: perfWindow)?.copy(compilerCpuMs = compilerCpuMs) else null
        val ceiling = Ceilings.of(endpoint, load, app, allotted, info, idle, measured, jvm?.workCpuMsPerRequest, prime?.httpCpuMsPerRequest)
        val windowShape = shape?.copy(waves = WindowFigures.waves(measured, cell.load.shape is LoadShape.Closed, ceiling))
        return CellResult(
            key = cell.key, configKey = cell.configKey, index = cell.index, folder = "cells/${cell.folder}", repetition = cell.repetition,
            status = status,
            reason = (outcome as? Outcome.Failed)?.reason ?: if (outcome == Outcome.Interrupted) "interrupted before the cell finished" else null,
            logTail = (outcome as? Outcome.Failed)?.logTail,
            app = app,
            profile = ProfileRecord(cell.profile.mode.id, cell.profile.cpus, cell.profile.cpuset, cell.profile.memoryBytes,
                cell.profile.heapBytes(), cell.profile.activeProcessorCount(lab.machineCpus), isolation,
                placement.driverCpus, placement.downstreamCpus, placement.shared, if (cell.profile.startOnAllCpus) "all" else "limited"),
            endpoint = endpoint,
            load = load,
            system = SystemRecord(sutRecord(sut), runtime, info, statsThreads),
            start = StartRecord(startup, prime),
            verification = verification,
            warmup = WarmupStage(compileFirst, warmupRecord, warmupAgain, warmupRecord?.let(stackbench.runner.results.Settlings::of), warmupSteps.toList(), quietAfterWarmupMs),
            window = WindowStage(measured, windowShape, jvm, pace),
            resources = ResourcesRecord(resources, samples),
            probes = probes,
            ceiling = CeilingRecord(idle, ceiling),
            flags = (if (status == CellStatus.OK) Flags.of(measured, resources, placement.shared && isolated, isolation, warmupRecord, windowShape, ceiling, pace, jvm, w?.lengthMs, allotted,
                (cell.load.settings.length as? LoadLength.Counted)?.requests) + listOfNotNull(Flags.pinned(probes["pinned"])) else emptyList()) +
                listOfNotNull(Flags.notIsolated(sut.runningAt).takeIf { !isolated }),
            timings = clock.timings(),
            files = files(),
            appStartedBy = reusedFrom,
            process = cell.processLabel,
            startedAt = startedAt.toString(),
            finishedAt = Instant.now().toString(),
        )
    }

    private fun sutRecord(sut: stackbench.runner.sut.SystemUnderTest): stackbench.runner.results.SutRecord {
        val c = sut.capabilities
        val all = c.named
        val counted = if (c.statsChannel) "the app's stats channel" else "the load generator, in warm-up runs of one slice each"
        return stackbench.runner.results.SutRecord(sut.kind, all.filter { it.second }.map { it.first }, all.filter { !it.second }.map { it.first }, counted,
            sut.runningAt?.toString())
    }

    /**
     * The cell's Little's-law ceiling as the warm-up can know it, before any window: from `/info`'s pools and the
     * endpoint's declared wait (no idle probe yet: that runs after the window). Null for an open load (its offered
     * rate caps it, whatever the app does), and wherever the law does not apply or an input is missing.
     */
    fun littleCeilingBeforeWindow(placement: Placement): Double? {
        if (cell.load.shape !is LoadShape.Closed) return null
        val ceiling = Ceilings.of(endpointRecord(), loadRecord(placement), appRecord(), cell.profile.allottedCpus(lab.machineCpus), info, null, null)
        return ceiling?.takeIf { it.law == Ceilings.LITTLE }?.requestsPerSecond
    }

    private fun appRecord() = AppRecord(cell.app.name, cell.app.source.id, cell.app.stack?.boot?.id, cell.app.stack?.label ?: cell.app.source.id,
        cell.app.virtualThreads, cell.app.properties, cell.app.systemProperties, cell.app.jvmArgs, command)

    private fun endpointRecord() = EndpointRecord(cell.endpoint.kind.id, cell.endpoint.strategy, cell.endpoint.params.toMap(), cell.endpoint.method,
        cell.endpoint.path, cell.endpoint.label, cell.endpoint.http?.concurrencyLimit)

    private fun loadRecord(placement: Placement): LoadRecord {
        val l = cell.load
        val model = when (l.shape) {
            is LoadShape.Closed -> "closed"
            is LoadShape.Open -> "open"
            is LoadShape.Scenario -> "scenario"
        }
        return LoadRecord(l.settings.driver.id, model, l.shape.connections, l.shape.rate, l.settings.warmup.toMillis(),
            (l.settings.length as? LoadLength.Timed)?.duration?.toMillis(), (l.settings.length as? LoadLength.Counted)?.requests,
            l.settings.timeout.toMillis(), l.settings.threads ?: placement.driverCpuCount(lab.machineCpus), l.label,
            instances = l.settings.instances, scenario = (l.shape as? LoadShape.Scenario)?.describe(), prime = l.settings.prime,
            primeMaxMs = l.settings.primeMax.takeIf { l.settings.prime && it < Defaults.PRIME_MAX }?.toMillis())
    }

    private fun files(): Map<String, String> = buildMap {
        for (name in listOf("app.log", "gc.log")) {
            val f = dir.resolve(name)
            if (f.isRegularFile()) put(name.substringBefore('.'), f.relativeTo(runDir).toString())
        }
        for (phase in listOf("warmup", "measured")) {
            val d = dir.resolve(phase)
            if (Files.isDirectory(d)) put(phase, d.relativeTo(runDir).toString())
        }
    }
}
