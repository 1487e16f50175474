package stackbench.runner.run

import stackbench.runner.compare.SuiteDecisions
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
     * Runs [plan] into [dir]. With [untilDecided], after the planned cells it keeps adding rounds (one more
     * repetition of every configuration that an undecided comparison rests on, interleaved) until every
     * comparison of the suite is decided or the next round would not fit in what is left of that budget.
     */
    fun run(
        plan: Plan, dir: Path, info: RunInfo, environment: Environment, earlier: RunResult? = null, hooks: Boolean = true,
        untilDecided: java.time.Duration? = null,
    ): RunResult {
        val store = ResultsStore(dir)
        val kept = earlier?.cells?.filter { it.status != CellStatus.INTERRUPTED }.orEmpty()
        val done = kept.map { it.key }.toSet()
        val toRun = plan.cells.filter { it.key !in done }
        val cells = kept.toMutableList()
        val searchCells = kept.filter { c -> plan.cells.none { it.key == c.key } }.associateBy { it.key }
        val searches = mutableListOf<stackbench.runner.results.CapacityResult>()
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
            fun runCell(cell: Cell, position: Int, of: Int) {
                listener.cellStarted(cell, position, of)
                val cellResult = executor.run(cell, ctx)
                // a stop request interrupts this thread; clear it so the writes below are not cut short
                val interrupted = Thread.interrupted()
                cells += cellResult
                result = result.copy(cells = sorted(cells, plan), environment = withVersions(result.environment, cellResult),
                    decisions = SuiteDecisions.decide(plan.suite.comparisons, cells))
                store.write(result)
                listener.cellFinished(cell, cellResult)
                if (interrupted && !stopping.get()) Thread.currentThread().interrupt()
            }
            for ((i, cell) in toRun.withIndex()) {
                if (stopping.get()) break
                runCell(cell, i + 1, toRun.size)
            }
            result = result.copy(decisions = SuiteDecisions.decide(plan.suite.comparisons, cells))
            store.write(result)
            var index = maxOf(plan.cells.size, kept.maxOfOrNull { it.index } ?: 0)
            if (untilDecided != null) {
                val deadline = System.nanoTime() + untilDecided.toNanos()
                var round = cells.maxOfOrNull { it.repetition } ?: 0
                while (!stopping.get()) {
                    val open = SuiteDecisions.openConfigs(result.decisions)
                    if (open.isEmpty()) break
                    round += 1
                    val next = plan.cells.filter { it.configKey in open }.distinctBy { it.configKey }
                        .map { it.copy(index = ++index, repetition = round) }
                    val estimate = next.fold(java.time.Duration.ZERO) { acc, c -> acc + roundEstimate(c, cells) }
                    if (System.nanoTime() + estimate.toNanos() > deadline) {
                        listener.note("stackbench: --until-decided: the budget has no room for round $round (about ${estimate.seconds} s); " +
                            "still open: ${result.decisions.filter { !it.decided }.joinToString { it.name }}")
                        break
                    }
                    listener.note("stackbench: --until-decided: round $round for ${open.size} configuration(s) of ${result.decisions.count { !it.decided }} undecided comparison(s)")
                    for ((i, cell) in next.withIndex()) {
                        if (stopping.get()) break
                        runCell(cell, i + 1, next.size)
                    }
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
        val info = cell.info ?: return env
        if (cell.app.label in env.apps) return env
        fun f(name: String) = info.path(name).asString("")
        val versions = stackbench.runner.results.AppVersions(f("springBoot"), f("springFramework"), f("server"), f("serverVersion"), f("jdk"))
        return env.copy(apps = env.apps + (cell.app.label to versions))
    }

    /**
     * How long one more repetition of [cell]'s configuration will take: the median of its earlier repetitions that
     * did not start their app (a kept app does not start or prime again), else the plan's estimate.
     */
    private fun roundEstimate(cell: Cell, done: List<CellResult>): java.time.Duration {
        val times = done.filter { it.configKey == cell.configKey && it.appStartedBy != null }.mapNotNull { it.timings?.totalMs?.toDouble() }
        return if (times.isEmpty()) stackbench.runner.plan.Estimates.cell(cell)
        else java.time.Duration.ofMillis(stackbench.runner.stats.Statistics.median(times).toLong())
    }

    /** For tests: as if Ctrl-C arrived. */
    fun requestStop() = stopping.set(true)

    private fun sorted(cells: List<CellResult>, plan: Plan): List<CellResult> {
        val order = plan.cells.withIndex().associate { it.value.key to it.index }
        return cells.sortedWith(compareBy({ order[it.key] ?: Int.MAX_VALUE }, { it.index }))
    }
}

/** How long the machine's pace is read before the first cell, as the run's first reference of a calm host. */
private val PACE_CALIBRATION: java.time.Duration = java.time.Duration.ofSeconds(2)
