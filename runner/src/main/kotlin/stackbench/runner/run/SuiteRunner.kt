package stackbench.runner.run

import stackbench.runner.cell.AppSessions
import stackbench.runner.cell.CellContext
import stackbench.runner.cell.CellRunner
import stackbench.runner.cell.ProgressListener
import stackbench.runner.cell.WindowProbes
import stackbench.runner.decide.SuiteDecisions
import stackbench.runner.plan.Cell
import stackbench.runner.plan.Plan
import stackbench.runner.probe.PaceCanary
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Environment
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunInfo
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import java.nio.file.Path
import java.time.Instant
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean

/** Runs one cell; the real one is [CellRunner], tests pass a fake. */
fun interface CellExecutor {
    fun run(cell: Cell, ctx: CellContext): CellResult
}

/**
 * Runs a plan's cells in order, writing results after every cell, so that an interrupted run keeps every
 * finished cell. Ctrl-C or SIGTERM stops the current cell, kills every child process and leaves valid
 * results marked interrupted. With earlier results (--resume), runs only the cells they lack.
 */
class SuiteRunner(
    private val executor: CellExecutor,
    private val listener: ProgressListener,
    private val killChildren: () -> Unit = {},
    private val downstreamUrl: (Cell, stackbench.runner.host.Placement) -> String? = { _, _ -> null },
    private val afterRun: () -> Unit = {},
    private val sessions: AppSessions? = null,
    private val probes: WindowProbes = WindowProbes.NONE,
) {
    private val stopping = AtomicBoolean(false)

    /**
     * Runs [plan] into [dir]. With [untilDecided], after the planned cells it keeps adding rounds (one more app
     * process of every configuration that an undecided comparison rests on, interleaved: [Rounds]) until every
     * comparison of the suite is decided, the run has taken its K looks, or the next round would not fit in what is
     * left of that budget. K is fixed before the first look ([Rounds.maxLooks]; a resumed run keeps its recorded K),
     * and look k decides at the confidence alpha spending allows it ([stackbench.runner.stats.Look]); a comparison
     * decided at one look keeps that decision.
     */
    fun run(
        plan: Plan, dir: Path, info: RunInfo, environment: Environment, earlier: RunResult? = null, hooks: Boolean = true,
        untilDecided: java.time.Duration? = null,
    ): RunResult {
        val store = ResultsStore(dir, plan.suite.secrets)
        val kept = earlier?.cells?.filter { it.status != CellStatus.INTERRUPTED }.orEmpty()
        val done = kept.map { it.key }.toSet()
        val toRun = plan.cells.filter { it.key !in done }
        val cells = kept.toMutableList()
        val searchCells = kept.filter { c -> plan.cells.none { it.key == c.key } }.associateBy { it.key }
        val searches = mutableListOf<stackbench.runner.results.CapacityResult>()
        // K looks at most, fixed now, before any data: a resumed run keeps the K it recorded
        val maxLooks = earlier?.decisions?.mapNotNull { it.decision.maxLooks }?.maxOrNull()
            ?: if (untilDecided != null && plan.suite.comparisons.isNotEmpty()) Rounds.maxLooks(plan, untilDecided) else 1
        var look = earlier?.decisions?.mapNotNull { it.decision.look }?.maxOrNull() ?: 1
        var frozen = earlier?.decisions.orEmpty().filter { it.decided && (it.decision.look ?: 1) < look }
        fun decide() = SuiteDecisions.decide(plan.suite.comparisons, cells, { stackbench.runner.stats.Look(look, maxLooks) }, frozen)
        var result = RunResult(run = info.copy(status = RunStatus.RUNNING), environment = environment, cells = sorted(cells, plan))
        store.write(result)
        listener.runStarted(plan, dir, toRun)

        val finished = CountDownLatch(1)
        val main = Thread.currentThread()
        val hook = Thread({
            stopping.set(true)
            listener.note("stackbench: stopping: killing the current cell's processes; finished cells are kept")
            main.interrupt()
            killChildren()
            finished.await(20, TimeUnit.SECONDS)
        }, "stackbench-shutdown")
        if (hooks) Runtime.getRuntime().addShutdownHook(hook)
        try {
            val ctx = CellContext(dir, info.id, downstreamUrl = downstreamUrl, listener = listener, stopping = { stopping.get() }, sessions = sessions, probes = probes)
            ctx.pace.place(PaceCanary().calibrate(PACE_CALIBRATION))?.let { pace ->
                result = result.copy(run = result.run.copy(pace = pace))
                store.write(result)
            }
            fun runCell(cell: Cell, position: Int, of: Int, decideNow: Boolean = true) {
                listener.cellStarted(cell, position, of)
                val cellResult = executor.run(cell, ctx)
                // a stop request interrupts this thread; clear it so the writes below are not cut short
                val interrupted = Thread.interrupted()
                cells += cellResult
                runCatching { stackbench.runner.results.SecretSweep.sweep(dir.resolve(cellResult.folder), plan.suite.secrets) }.getOrNull()
                    ?.takeIf { it.isNotEmpty() }?.let { files ->
                        listener.note("stackbench: ${cell.key}: a value from the environment was written by the app or a tool into ${files.joinToString()}: written back as its placeholder")
                    }
                // inside a round the decisions stay those of the last whole look: a half round is not a look
                result = result.copy(cells = sorted(cells, plan), environment = withVersions(result.environment, cellResult),
                    decisions = if (decideNow) decide() else result.decisions)
                store.write(result)
                listener.cellFinished(cell, cellResult)
                if (interrupted && !stopping.get()) Thread.currentThread().interrupt()
            }
            // a capacity search starts its own cells later: only a plan without one knows every cell still to come
            fun retireIdle(upcoming: List<Cell>) { if (plan.searches.isEmpty()) runCatching { sessions?.retire(upcoming) } }
            for ((i, cell) in toRun.withIndex()) {
                if (stopping.get()) break
                runCell(cell, i + 1, toRun.size)
                retireIdle(toRun.drop(i + 1))
            }
            result = result.copy(decisions = decide())
            store.write(result)
            var index = maxOf(plan.cells.size, kept.maxOfOrNull { it.index } ?: 0)
            if (untilDecided != null) {
                val deadline = System.nanoTime() + untilDecided.toNanos()
                listener.note("stackbench: --until-decided: at most $maxLooks look(s) (the planned cells, then the rounds that fit " +
                    "${untilDecided.seconds} s by the plan's estimate), each at the confidence alpha spending allows it")
                while (!stopping.get()) {
                    val open = SuiteDecisions.openConfigs(result.decisions)
                    if (open.isEmpty()) break
                    if (look >= maxLooks) {
                        listener.note("stackbench: --until-decided: all $maxLooks look(s) taken; still open: ${result.decisions.filter { !it.decided }.joinToString { it.name }}")
                        break
                    }
                    val next = Rounds.cells(plan, open, cells, index)
                    // a round's processes are new: their start and priming on top of the windows, unless a cell's
                    // estimate was timed whole from its own app's start
                    val estimates = next.associateWith { roundEstimate(it, cells) }
                    val estimate = estimates.values.fold(java.time.Duration.ZERO) { acc, e -> acc + e.time } +
                        stackbench.runner.plan.Estimates.priming(next.filter { !estimates.getValue(it).withStart },
                            plan.suite.restart == stackbench.runner.suite.Restart.APP)
                    if (System.nanoTime() + estimate.toNanos() > deadline) {
                        listener.note("stackbench: --until-decided: the budget has no room for look ${look + 1} of $maxLooks (about ${estimate.seconds} s); " +
                            "still open: ${result.decisions.filter { !it.decided }.joinToString { it.name }}")
                        break
                    }
                    index += next.size
                    frozen = result.decisions
                    look += 1
                    listener.note("stackbench: --until-decided: look $look of $maxLooks, one more process of ${open.size} configuration(s) of " +
                        "${result.decisions.count { !it.decided }} undecided comparison(s)")
                    for ((i, cell) in next.withIndex()) {
                        if (stopping.get()) break
                        runCell(cell, i + 1, next.size, decideNow = false)
                        retireIdle(next.drop(i + 1))
                    }
                    if (stopping.get()) break
                    result = result.copy(decisions = decide())
                    store.write(result)
                }
            }
            val searchRunner = CapacitySearchRunner(executor, listener)
            for (search in plan.searches) {
                if (stopping.get()) break
                searches += searchRunner.run(search, { ++index }, ctx, searchCells) { cell ->
                    Thread.interrupted()
                    cells += cell
                    result = result.copy(cells = sorted(cells, plan))
                    store.write(result)
                }
                result = result.copy(searches = searches.toList())
                store.write(result)
            }
        } finally {
            Thread.interrupted()
            runCatching { sessions?.stopAll() }
            runCatching { afterRun() }
            val status = if (stopping.get()) RunStatus.INTERRUPTED else RunStatus.COMPLETE
            result = result.copy(run = result.run.copy(status = status, finishedAt = Instant.now().toString()))
            store.write(result)
            listener.runFinished(result, dir)
            finished.countDown()
            if (hooks) runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
        }
        return result
    }

    /** The versions an app reported in its /info, recorded once per app label in the environment. */
    private fun withVersions(env: Environment, cell: CellResult): Environment {
        val info = cell.system.info ?: return env
        if (cell.app.label in env.apps) return env
        fun f(name: String) = info.path(name).asString("")
        val versions = stackbench.runner.results.AppVersions(f("springBoot"), f("springFramework"), f("server"), f("serverVersion"), f("jdk"))
        return env.copy(apps = env.apps + (cell.app.label to versions))
    }

    /** How long a round's cell will take ([time]), and whether that holds its process's start and priming ([withStart]). */
    private data class RoundEstimate(val time: java.time.Duration, val withStart: Boolean)

    /**
     * How long one more repetition of [cell]'s configuration will take: the median of its earlier repetitions that
     * did not start their app (a kept app does not start or prime again; the round adds its priming), else of those
     * that did, start and priming included (`restart: cell`, or one window a process), else the plan's estimate. The
     * measured times, not the plan's, choose whether a round fits the budget: the plan's run short on a slow host.
     */
    private fun roundEstimate(cell: Cell, done: List<CellResult>): RoundEstimate {
        val same = done.filter { it.configKey == cell.configKey }
        median(same.filter { it.appStartedBy != null })?.let { return RoundEstimate(it, withStart = false) }
        median(same.filter { it.appStartedBy == null })?.let { return RoundEstimate(it, withStart = true) }
        return RoundEstimate(stackbench.runner.plan.Estimates.cell(cell), withStart = false)
    }

    private fun median(cells: List<CellResult>): java.time.Duration? =
        cells.mapNotNull { it.timings?.totalMs?.toDouble() }.takeIf { it.isNotEmpty() }
            ?.let { java.time.Duration.ofMillis(stackbench.runner.stats.Statistics.median(it).toLong()) }

    /** For tests: as if Ctrl-C arrived. */
    fun requestStop() = stopping.set(true)

    private fun sorted(cells: List<CellResult>, plan: Plan): List<CellResult> {
        val order = plan.cells.withIndex().associate { it.value.key to it.index }
        return cells.sortedWith(compareBy({ order[it.key] ?: Int.MAX_VALUE }, { it.index }))
    }
}

/**
 * How long the machine's pace is read before the first cell, as the run's first reference of a calm host: about 1,000
 * readings of a third of a millisecond each, where a window's reference is its median over some 300 (2 s before, which
 * every run and every test paid).
 */
private val PACE_CALIBRATION: java.time.Duration = java.time.Duration.ofMillis(500)
