package stackbench.runner.run

import stackbench.contract.Paths
import stackbench.contract.Todos
import stackbench.runner.host.LogFiles
import stackbench.runner.host.Placement
import stackbench.runner.load.DriveRequest
import stackbench.runner.plan.Cell
import stackbench.runner.probe.CompilerThreads
import stackbench.runner.probe.GcLog
import stackbench.runner.probe.ProcReader
import stackbench.runner.probe.Sampler
import stackbench.runner.probe.OpenConnections
import stackbench.runner.probe.StatsChannel
import stackbench.runner.results.CellResult
import stackbench.runner.results.StartupResult
import stackbench.runner.results.VerificationResult
import stackbench.runner.sut.AppLauncher
import stackbench.runner.sut.AppStartException
import stackbench.runner.sut.Expectations
import stackbench.runner.sut.RunningApp
import stackbench.runner.sut.SpringLog
import stackbench.runner.suite.Defaults
import tools.jackson.databind.JsonNode
import java.nio.file.Files
import java.nio.file.Path
import java.time.Instant

/** What one cell needs from the run around it. */
data class CellContext(
    val runDir: Path,
    val runId: String,
    /** Names this runner's cgroups: `sb<pid>`, so a later run can tell whose groups are stale. */
    val groupPrefix: String = "sb${ProcessHandle.current().pid()}",
    /** The downstream service's URL, started for this cell's placement if its endpoint needs it. */
    val downstreamUrl: (Cell, Placement) -> String?,
    val listener: ProgressListener,
    val stopping: () -> Boolean,
    /** With `restart: app`, where a started app waits for the next cell of its configuration; null: a fresh app per cell. */
    val sessions: AppSessions? = null,
)

/**
 * Runs one cell the same way every time: start the app in its confinement, time its start, verify its
 * answer, warm it up, then drive the measured load while sampling, and stop it. A failure at any step
 * is recorded with its reason and the app's log tail; whatever was measured before it is kept.
 */
class CellRunner(private val lab: Lab) {
    private val launcher = AppLauncher(lab.host, lab.isolation, lab.java, lab.home, lab.machineCpus, lab.http)
    private val expectations = Expectations(lab.json)
    private val os = oshi.nativefree.SystemInfo().operatingSystem

    fun run(cell: Cell, ctx: CellContext): CellResult {
        val dir = ctx.runDir.resolve("cells").resolve(cell.folder)
        Files.createDirectories(dir)
        val record = CellRecord(cell, lab, ctx.runDir, dir)
        val placement = Placement.of(cell.profile, lab.machineCpus)
        val clock = PhaseClock()
        var app: RunningApp? = null
        val outcome: Outcome = try {
            val reused = ctx.sessions?.take(cell)
            val healthyMs = if (reused != null) {
                app = reused
                record.reusedFrom = reused.startedBy
                null
            } else {
                ctx.listener.phase(cell, "starting")
                val downstream = ctx.downstreamUrl(cell, placement)
                app = launcher.start(cell, dir, "${ctx.groupPrefix}-${cell.index}-app", downstream)
                launcher.awaitHealthy(app)
            }
            record.command = app.command
            measure(cell, ctx, app, record, placement, clock, healthyMs)
        } catch (e: InterruptedException) {
            Outcome.Interrupted
        } catch (e: AppStartException) {
            Outcome.Failed(e.message!!, e.logTail)
        } catch (e: DriverFailedException) {
            if (ctx.stopping()) Outcome.Interrupted else Outcome.Failed(e.message!!, e.logTail + (app?.child?.logTail(20) ?: emptyList()))
        } catch (e: Exception) {
            if (ctx.stopping()) Outcome.Interrupted else Outcome.Failed("${e::class.simpleName}: ${e.message}", app?.child?.logTail() ?: emptyList())
        } finally {
            val started = app
            if (started != null && ctx.sessions != null && record.measured != null && !ctx.stopping()) {
                ctx.sessions.keep(cell, started)
            } else {
                ctx.listener.phase(cell, "stopping")
                runCatching { started?.stop() }
            }
            clock.mark("stop")
            val gcLog = (started?.dir ?: dir).resolve("gc.log")
            record.gcPauses = GcLog.parse(runCatching { Files.readAllLines(gcLog) }.getOrDefault(emptyList()))
        }
        return record.build(outcome, clock, placement)
    }

    /**
     * Verification, warm-up and the measured load of a started app; [healthyMs] is its time to healthy when
     * this cell started it, null when it was kept from an earlier cell.
     */
    private fun measure(cell: Cell, ctx: CellContext, app: RunningApp, record: CellRecord, placement: Placement, clock: PhaseClock, healthyMs: Double?): Outcome {
        val dir = ctx.runDir.resolve("cells").resolve(cell.folder)
        clock.mark("start")

        ctx.listener.phase(cell, "verifying")
        record.info = readInfo(app)
        val answer = lab.http.call(app.baseUrl.resolve(cell.endpoint.path), cell.endpoint.method, body(cell), credentials(cell),
            cell.load.timeout.plusSeconds(5))
        if (healthyMs != null) {
            val firstResponseMs = (System.nanoTime() - app.child.startNanos) / 1e6
            val spring = SpringLog.started(LogFiles.tail(app.child.log, 400))
            record.startup = StartupResult(healthyMs, firstResponseMs, spring?.seconds, spring?.processRunningSeconds)
        }
        val problem = expectations.check(cell.endpoint, answer)
        record.verification = VerificationResult(problem == null, answer.status, answer.elapsedMs, problem, Expectations.excerpt(answer.body, 500))
        clock.mark("verify")
        if (problem != null) return Outcome.Failed("verification failed: $problem", app.child.logTail())
        if (ctx.stopping()) return Outcome.Interrupted

        val ready = lab.driver(cell.load.driver)
        val threads = cell.load.threads ?: placement.driverCpuCount(lab.machineCpus)
        // a cell without warm-up measures a cold JVM on purpose (a container started for the test): no priming either
        if (app.prime == null && !cell.load.warmup.isZero) {
            ctx.listener.phase(cell, "priming")
            app.prime = Priming(lab).prime(cell, ctx, app, placement, threads, ready, dir, CompilerThreads(os, app.child.pid.toInt())::cpuMs)
            if (ctx.stopping()) return Outcome.Interrupted
            if (!app.child.isAlive()) return Outcome.Failed(exited(app, "priming"), app.child.logTail())
            awaitQuiet(app, cell)
        }
        record.prime = app.prime
        var warmRate: Double? = null
        if (!cell.load.warmup.isZero) {
            ctx.listener.phase(cell, "warming up")
            warmRate = warmUp(cell, ctx, app, record, placement, threads, ready, dir)
        }
        if (ctx.stopping()) return Outcome.Interrupted
        if (!app.child.isAlive()) return Outcome.Failed(exited(app, "warm-up"), app.child.logTail())
        record.quietAfterWarmupMs = awaitQuiet(app, cell)
        clock.mark("warmup")

        ctx.listener.phase(cell, "measuring")
        val phase = LoadPhase(lab.host, lab.isolation)
        val confinement = app.confinement
        val sampler = Sampler(ProcReader(os, app.child.pid.toInt()), { confinement.counters() }, StatsChannel(app.statsUrl, lab.json), phase::driverCpuMs)
        ctx.listener.measuring(cell, sampler)
        sampler.sampleNow()
        sampler.start()
        val cgroupStart = confinement.counters()
        val windowStart = System.currentTimeMillis()
        val measured = try {
            phase.run(ready.driver, ready.executable, request(cell, app, dir.resolve("measured"), threads, windowLength(cell, warmRate, record)),
                placement.driverCpus, "${ctx.groupPrefix}-${cell.index}-driver")
        } finally {
            runCatching { sampler.sampleNow() } // a reading after the window closed, so its last second has both edges
            record.raw = sampler.stop()
            record.samplerCpuMs = sampler.ownCpuNanos / 1e6
        }
        record.window = MeasuredWindow(windowStart, (measured.wallSeconds * 1000).toLong(), cgroupStart, confinement.counters())
        record.measured = measured
        clock.mark("measured")
        // an app that died in the window (the memory limit's OOM killer, a crash) answered with refused
        // connections: its figures are kept, but the cell failed
        if (!app.child.isAlive()) return Outcome.Failed(exited(app, "measured window"), app.child.logTail())
        // the idle probe runs last, on the warmest app this cell has: right after the warm-up, the JIT
        // compiler still competed for the one CPU and made single requests look several times slower
        // a lone request's time on this configuration of this (warm) process was probed already: reused, and named
        val probed = app.idleProbes[cell.configKey]
        if (probed != null) {
            record.idle = probed
        } else if (!ctx.stopping() && awaitQuiet(app, cell) != null) {
            // a probe that fails (the app still busy past the timeout) costs the cell its ceiling, not its measurements
            record.idle = runCatching { idleProbe(cell, app) }
                .onSuccess { if (it != null) app.idleProbes[cell.configKey] = it.copy(probedBy = cell.key) }
                .onFailure { ctx.listener.note("  ${cell.key}: the idle probe failed (${it.message ?: it.javaClass.simpleName}); no time per lone request, so no ceiling") }
                .getOrNull()
        }
        return Outcome.Ok
    }

    /** Why a cell failed whose app is gone: its exit code, and what 137 (SIGKILL) most likely was. */
    private fun exited(app: RunningApp, phase: String): String {
        val code = app.child.process.exitValue()
        return "the app exited during the $phase (exit code $code" +
            (if (code == 137) ": killed, with a memory limit most likely by the OOM killer" else "") + ")"
    }

    /**
     * The warm-up: at least [stackbench.runner.plan.LoadLevel.warmup], then until the app is steady ([WarmupWatch]:
     * compilation quiet, throughput without trend) or [stackbench.runner.plan.LoadLevel.warmupMax] is reached (a fixed
     * warm-up when the two are equal; it still records whether the app was steady at its end). Its figures are not
     * counted. Returns the app's own rate over the last slices (null if it never finished a slice).
     */
    private fun warmUp(cell: Cell, ctx: CellContext, app: RunningApp, record: CellRecord, placement: Placement, threads: Int, ready: ReadyDriver, dir: Path): Double? {
        val phase = LoadPhase(lab.host, lab.isolation)
        val group = "${ctx.groupPrefix}-${cell.index}-warmup"
        val watch = WarmupWatch(StatsChannel(app.statsUrl, lab.json)::read, Defaults.WARMUP_SLICE, CompilerThreads(os, app.child.pid.toInt())::cpuMs,
            cell.profile.allottedCpus(lab.machineCpus))
        val start = System.nanoTime()
        val cap = maxOf(cell.load.warmup, cell.load.warmupMax)
        val seconds = phase.runUntil(ready.driver, ready.executable, request(cell, app, dir.resolve("warmup"), threads, stackbench.runner.suite.LoadLength.Timed(cap)), placement.driverCpus, group) {
            // no reading in the driver's last half second: it may already have stopped sending, and the slice would be partial
            val steady = if (System.nanoTime() - start < cap.toNanos() - TAIL_NANOS) watch.poll() else watch.steady()
            steady && System.nanoTime() - start >= cell.load.warmup.toNanos() || ctx.stopping()
        }
        record.warmupRecord = watch.record(seconds)
        record.warmupSteps += watch.slices.map { it.rate }
        return watch.slices.takeLast(WarmupWatch.FLAT_SLICES).takeIf { it.isNotEmpty() }?.let { s -> s.sumOf { it.completed } / s.sumOf { it.seconds } }
    }

    /**
     * The measured window's length: the plan's, lengthened for a closed model to hold [Defaults.MIN_ROUND_TRIPS]
     * round trips per connection at the warm-up's rate (Little's law: a round trip takes connections ÷ rate), but
     * never past the suite's own (unscaled) length: `--scale` shortens a window, never below what counts.
     */
    private fun windowLength(cell: Cell, warmRate: Double?, record: CellRecord): stackbench.runner.suite.LoadLength {
        val planned = cell.load.length
        val shape = cell.load.shape
        if (planned !is stackbench.runner.suite.LoadLength.Timed || shape !is stackbench.runner.plan.LoadShape.Closed) return planned
        val length = stackbench.runner.plan.WindowRule.length(planned.duration, cell.load.fullDuration ?: planned.duration, shape.connections, warmRate)
        if (length != planned.duration) record.plannedWindowMs = planned.duration.toMillis()
        return stackbench.runner.suite.LoadLength.Timed(length)
    }

    /**
     * Waits until the app has finished the requests still in flight when the warm-up's driver stopped, so
     * they neither slow the idle probe nor the measured window: until its own completion counter has not
     * moved for [Defaults.QUIET_FOR] and it holds no client connection on its port ([OpenConnections]), at
     * most the cell's timeout. Returns how long that took, or null if the app never went quiet (or never answered its counter).
     */
    private fun awaitQuiet(app: RunningApp, cell: Cell): Long? {
        val stats = StatsChannel(app.statsUrl, lab.json)
        val port = app.baseUrl.port
        val start = System.nanoTime()
        val deadline = start + cell.load.timeout.toNanos()
        // a saturated app may not answer the stats channel in time: that is not quiet, so keep asking until the deadline
        var first = stats.read()
        while (first == null) {
            if (System.nanoTime() >= deadline) return null
            Thread.sleep(50)
            first = stats.read()
        }
        var last: stackbench.runner.probe.ServerCount = first
        var since = System.nanoTime()
        while (System.nanoTime() < deadline) {
            Thread.sleep(50)
            val now = stats.read() ?: continue
            if (now.completed != last.completed) {
                last = now
                since = System.nanoTime()
            } else if (System.nanoTime() - since >= Defaults.QUIET_FOR.toNanos() && (OpenConnections.read(app.child.pid, port) ?: 0) == 0) {
                return (System.nanoTime() - start) / 1_000_000
            }
        }
        return null
    }

    /**
     * One request at a time, for about a second (at least 3, at most 30 requests): the time a request
     * takes with nothing queued before it, and the app's CPU time per request.
     */
    private fun idleProbe(cell: Cell, app: RunningApp): stackbench.runner.results.IdleProbe? {
        val url = app.baseUrl.resolve(cell.endpoint.path)
        val cpuBefore = app.confinement.counters()?.cpuUsageNs
        val start = System.nanoTime()
        val times = mutableListOf<Double>()
        while (times.size < 30 && (times.size < 3 || System.nanoTime() - start < 1_000_000_000L)) {
            val answer = lab.http.call(url, cell.endpoint.method, body(cell), credentials(cell), cell.load.timeout)
            if (answer.status != expectations.expectedStatus(cell.endpoint)) return null
            times += answer.elapsedMs
        }
        val cpuAfter = app.confinement.counters()?.cpuUsageNs
        val cpuPer = if (cpuBefore != null && cpuAfter != null) (cpuAfter - cpuBefore) / 1e6 / times.size else null
        return stackbench.runner.results.IdleProbe(times.size, stackbench.runner.stats.Statistics.median(times), times.min(), cpuPer)
    }

    private fun readInfo(app: RunningApp): JsonNode? = runCatching {
        lab.json.readTree(lab.http.call(app.baseUrl.resolve(Paths.INFO)).body)
    }.getOrNull()

    private fun body(cell: Cell): String? = cell.endpoint.body?.let { lab.json.writeValueAsString(it) }

    private fun credentials(cell: Cell) = if (cell.endpoint.needsCredentials) Todos.USER to Todos.PASSWORD else null

    private fun request(cell: Cell, app: RunningApp, out: Path, threads: Int, length: stackbench.runner.suite.LoadLength): DriveRequest {
        return DriveRequest(
            url = app.baseUrl.resolve(cell.endpoint.path),
            method = cell.endpoint.method,
            body = body(cell),
            basicAuth = credentials(cell),
            shape = cell.load.shape,
            length = length,
            timeout = cell.load.timeout,
            threads = threads,
            outputDir = out,
            expectedStatus = expectations.expectedStatus(cell.endpoint),
        )
    }
}

/** The end of a driver's run in which the warm-up watch takes no reading. */
internal const val TAIL_NANOS = 500_000_000L

/** Wall-clock marks of a cell's phases. */
class PhaseClock {
    private val start = System.nanoTime()
    private var last = start
    val spans = linkedMapOf<String, Long>()

    fun mark(phase: String) {
        val now = System.nanoTime()
        spans[phase] = (now - last) / 1_000_000
        last = now
    }

    fun timings() = stackbench.runner.results.Timings(
        spans["start"] ?: 0, spans["verify"] ?: 0, spans["warmup"] ?: 0, spans["measured"] ?: 0, spans["stop"] ?: 0,
        (System.nanoTime() - start) / 1_000_000,
    )

    val startedAt: Instant = Instant.now()
}
