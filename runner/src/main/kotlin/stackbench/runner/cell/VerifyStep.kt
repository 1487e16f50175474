package stackbench.runner.cell

import stackbench.contract.Paths
import stackbench.runner.host.LogFiles
import stackbench.runner.results.StartupResult
import stackbench.runner.results.VerificationResult
import stackbench.runner.sut.Expectations
import stackbench.runner.sut.SpringLog

/**
 * Verify: the app's `/info`, then the cell's own request once (every request of a scenario, once each, in order;
 * every request of a mix, and a sample of a fed request's values, [VerifyLog]), its status and body checked, each
 * request named in the cell's `verify.txt`; a wrong answer fails the cell before any load (the record keeps the first wrong
 * answer, else the first request's). In: the app. Out: the info, the startup (when this cell started the app: the first
 * answer's time and Spring's own "Started" line), the verification.
 *
 * Once per app process and configuration: a later repetition on the same process reuses the info and the passed
 * verification, and names the cell that made it: requests unlike the load's, sent between repetitions, make the JIT
 * throw away the app's hottest compiled code (docs/methodology.md, *Checks of the steady state*).
 */
class VerifyStep : CellStep {
    override val name = "verify"

    override fun run(run: CellRun): Outcome? {
        val (cell, app) = run.cell to run.started()
        run.ctx.listener.phase(cell, "verifying")
        val reused = app.verifications[cell.configKey]
        if (reused != null) {
            run.record.info = app.info
            run.record.verification = reused
        } else {
            verify(run)
        }
        run.clock.mark("verify")
        val problem = run.record.verification?.problem
        if (problem != null) return Outcome.Failed("verification failed: $problem", app.logTail())
        if (run.ctx.stopping()) return Outcome.Interrupted
        return null
    }

    /** Reads `/info` (once per process) and sends the cell's requests; a passed check is kept for later repetitions. */
    private fun verify(run: CellRun) {
        val (lab, cell, app) = Triple(run.lab, run.cell, run.started())
        val offers = app.sut.capabilities
        run.record.info = if (!offers.info) null
        else app.info ?: runCatching { lab.json.readTree(lab.http.call(app.at(Paths.INFO)).body) }.getOrNull()?.also { app.info = it }
        val send = { call: stackbench.runner.plan.EndpointCall ->
            lab.http.call(app.at(call.path), call.method, run.body(call), run.credentials(call), cell.load.settings.timeout.plusSeconds(5), call.http?.headers.orEmpty())
        }
        val traffic = cell.endpoint.http?.traffic
        val checked = if (traffic != null) {
            VerifyLog.planned(traffic, lab.json).map { r ->
                val answer = lab.http.call(app.at(r.path), r.method, r.body, null, cell.load.settings.timeout.plusSeconds(5), r.headers)
                VerifyLog.Checked(r.name, r.method, r.path, answer, r.check(answer))
            }
        } else cell.calls.map { call ->
            val answer = send(call)
            VerifyLog.Checked(call.http?.name ?: call.label, call.method, call.path, answer, run.expectations.check(call, answer))
        }
        // paths as the suite wrote them, sampled values in: a `${'$'}{env:NAME}` stays a placeholder (the HTTP client puts the value in)
        java.nio.file.Files.createDirectories(run.dir)
        java.nio.file.Files.writeString(run.dir.resolve(VerifyLog.FILE), VerifyLog.text(checked, traffic))
        val first = checked.firstOrNull { it.problem != null } ?: checked.first()
        val answer = first.answer
        val problem = first.problem?.let { if (checked.size > 1) "${first.name} ${first.method} ${first.path}: $it" else it }
        // a start-up only where this cell started a process (none for a system the lab did not start)
        val (healthyMs, process) = run.healthyMs to app.process
        if (healthyMs != null && process != null) {
            val firstResponseMs = (System.nanoTime() - process.startNanos) / 1e6
            val spring = if (offers.startLine) SpringLog.started(LogFiles.tail(process.log, 400)) else null
            run.record.startup = StartupResult(healthyMs, firstResponseMs, spring?.seconds, spring?.processRunningSeconds, app.fastStart, app.startedOnAllCpus)
        }
        val verification = VerificationResult(problem == null, answer.status, answer.elapsedMs, problem, Expectations.excerpt(answer.body, 500))
        run.record.verification = verification
        if (problem == null) app.verifications[cell.configKey] = verification.copy(verifiedBy = cell.key)
    }
}
