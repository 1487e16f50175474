package stackbench.runner.run

import stackbench.contract.Paths
import stackbench.contract.Todos
import stackbench.runner.host.LogFiles
import stackbench.runner.host.Placement
import stackbench.runner.load.DriveRequest
import stackbench.runner.plan.Cell
import stackbench.runner.probe.GcLog
import stackbench.runner.probe.ProcReader
import stackbench.runner.probe.Sampler
import stackbench.runner.probe.StatsChannel
import stackbench.runner.results.CellResult
import stackbench.runner.results.StartupResult
import stackbench.runner.results.VerificationResult
import stackbench.runner.sut.AppLauncher
import stackbench.runner.sut.AppStartException
import stackbench.runner.sut.Expectations
import stackbench.runner.sut.RunningApp
import stackbench.runner.sut.SpringLog
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
            ctx.listener.phase(cell, "starting")
            val downstream = ctx.downstreamUrl(cell, placement)
            app = launcher.start(cell, dir, "${ctx.groupPrefix}-${cell.index}-app", downstream)
            record.command = app.command
            measure(cell, ctx, app, record, placement, clock, dir)
        } catch (e: InterruptedException) {
            Outcome.Interrupted
        } catch (e: AppStartException) {
            Outcome.Failed(e.message!!, e.logTail)
        } catch (e: DriverFailedException) {
            if (ctx.stopping()) Outcome.Interrupted else Outcome.Failed(e.message!!, e.logTail + (app?.child?.logTail(20) ?: emptyList()))
        } catch (e: Exception) {
            if (ctx.stopping()) Outcome.Interrupted else Outcome.Failed("${e::class.simpleName}: ${e.message}", app?.child?.logTail() ?: emptyList())
        } finally {
            ctx.listener.phase(cell, "stopping")
            runCatching { app?.stop() }
            clock.mark("stop")
            record.gcPauses = GcLog.parse(runCatching { Files.readAllLines(dir.resolve("gc.log")) }.getOrDefault(emptyList()))
        }
        return record.build(outcome, clock, placement)
    }

    /** Start timing, verification, warm-up and the measured load of a started app. */
    private fun measure(cell: Cell, ctx: CellContext, app: RunningApp, record: CellRecord, placement: Placement, clock: PhaseClock, dir: Path): Outcome {
        val healthyMs = launcher.awaitHealthy(app)
        clock.mark("start")

        ctx.listener.phase(cell, "verifying")
        record.info = readInfo(app)
        val answer = lab.http.call(app.baseUrl.resolve(cell.endpoint.path), cell.endpoint.method, body(cell), credentials(cell),
            cell.load.timeout.plusSeconds(5))
        val firstResponseMs = (System.nanoTime() - app.child.startNanos) / 1e6
        val spring = SpringLog.started(LogFiles.tail(app.child.log, 400))
        record.startup = StartupResult(healthyMs, firstResponseMs, spring?.seconds, spring?.processRunningSeconds)
        val problem = expectations.check(cell.endpoint, answer)
        record.verification = VerificationResult(problem == null, answer.status, answer.elapsedMs, problem, Expectations.excerpt(answer.body, 500))
        clock.mark("verify")
        if (problem != null) return Outcome.Failed("verification failed: $problem", app.child.logTail())
        if (ctx.stopping()) return Outcome.Interrupted

        val ready = lab.driver(cell.load.driver)
        val threads = cell.load.threads ?: placement.driverCpuCount(lab.machineCpus)
        if (!cell.load.warmup.isZero) {
            ctx.listener.phase(cell, "warming up")
            record.warmup = LoadPhase(lab.host, lab.isolation).run(ready.driver, ready.executable,
                request(cell, app, dir.resolve("warmup"), threads, warmup = true), placement.driverCpus, "${ctx.groupPrefix}-${cell.index}-warmup")
        }
        clock.mark("warmup")
        if (ctx.stopping()) return Outcome.Interrupted

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
            phase.run(ready.driver, ready.executable, request(cell, app, dir.resolve("measured"), threads, warmup = false),
                placement.driverCpus, "${ctx.groupPrefix}-${cell.index}-driver")
        } finally {
            runCatching { sampler.sampleNow() } // a reading after the window closed, so its last second has both edges
            record.raw = sampler.stop()
            record.samplerCpuMs = sampler.ownCpuNanos / 1e6
        }
        record.window = MeasuredWindow(windowStart, (measured.wallSeconds * 1000).toLong(), cgroupStart, confinement.counters())
        record.measured = measured
        clock.mark("measured")
        return Outcome.Ok
    }

    private fun readInfo(app: RunningApp): JsonNode? = runCatching {
        lab.json.readTree(lab.http.call(app.baseUrl.resolve(Paths.INFO)).body)
    }.getOrNull()

    private fun body(cell: Cell): String? = cell.endpoint.body?.let { lab.json.writeValueAsString(it) }

    private fun credentials(cell: Cell) = if (cell.endpoint.needsCredentials) Todos.USER to Todos.PASSWORD else null

    private fun request(cell: Cell, app: RunningApp, out: Path, threads: Int, warmup: Boolean): DriveRequest {
        val length = if (warmup) stackbench.runner.suite.LoadLength.Timed(cell.load.warmup) else cell.load.length
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
