package stackbench.runner.cell

import stackbench.runner.plan.Cell
import stackbench.runner.plan.Estimates
import stackbench.runner.plan.Plan
import stackbench.runner.probe.Sampler
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.RunResult
import java.io.PrintStream
import java.nio.file.Path
import java.time.Duration

/** Live progress of a run; separate from the record (results.json), which it never touches. */
interface ProgressListener {
    fun runStarted(plan: Plan, dir: Path, toRun: List<Cell>) {}
    fun cellStarted(cell: Cell, position: Int, total: Int) {}
    fun phase(cell: Cell, phase: String) {}
    fun measuring(cell: Cell, sampler: Sampler) {}
    fun cellFinished(cell: Cell, result: CellResult) {}
    fun note(message: String) {}
    fun runFinished(result: RunResult, dir: Path) {}

    object Silent : ProgressListener
}

/**
 * One progress line: cell i of N, its name, its phase, the run's elapsed time, an estimate of the time
 * left, and live requests/s from the app's own counter while measuring. Rewritten in place on a terminal,
 * printed every few seconds otherwise.
 */
class ConsoleProgress(private val out: PrintStream, private val interactive: Boolean) : ProgressListener {
    private val runStart = System.nanoTime()
    @Volatile private var line = ""
    @Volatile private var cell: Cell? = null
    @Volatile private var position = 0
    @Volatile private var total = 0
    @Volatile private var phase = ""
    @Volatile private var phaseStart = System.nanoTime()
    @Volatile private var sampler: Sampler? = null
    @Volatile private var remaining: List<Cell> = emptyList()
    @Volatile private var cellStart = System.nanoTime()
    @Volatile private var restartApp = false
    /** The cells finished so far: their time and their estimates, for [Estimates.paced]. */
    @Volatile private var spent = Duration.ZERO
    @Volatile private var planned = Duration.ZERO
    private var ticker: Thread? = null

    override fun runStarted(plan: Plan, dir: Path, toRun: List<Cell>) {
        remaining = toRun
        restartApp = plan.suite.restart == stackbench.runner.suite.Restart.APP
        val about = toRun.fold(Duration.ZERO) { a, c -> a + Estimates.cell(c) } + Estimates.priming(toRun, restartApp)
        out.println("stackbench: ${plan.suite.name}: ${toRun.size} cells, about ${format(about)}; results in $dir")
        ticker = Thread({
            var n = 0
            while (!Thread.currentThread().isInterrupted) {
                try { Thread.sleep(1000) } catch (e: InterruptedException) { break }
                if (interactive || ++n % 5 == 0) render()
            }
        }, "stackbench-progress").apply { isDaemon = true; start() }
    }

    override fun cellStarted(cell: Cell, position: Int, total: Int) {
        this.cell = cell
        this.position = position
        this.total = total
        cellStart = System.nanoTime()
        remaining = remaining.filter { it.key != cell.key }
    }

    override fun phase(cell: Cell, phase: String) {
        this.phase = phase
        phaseStart = System.nanoTime()
        if (phase != "measuring") sampler = null
        if (!interactive) render()
    }

    override fun measuring(cell: Cell, sampler: Sampler) {
        this.sampler = sampler
    }

    override fun cellFinished(cell: Cell, result: CellResult) {
        sampler = null
        spent += Duration.ofNanos(System.nanoTime() - cellStart)
        planned += Estimates.cell(cell)
        val m = result.window.measured
        val figures = when {
            result.status != CellStatus.OK -> "${result.status.name.lowercase()}: ${result.reason}"
            m != null -> "%,.0f req/s, p99 %s, errors %d".format(m.throughput, m.latency.p99?.let { "%.1f ms".format(it) } ?: "-", m.errorCount) +
                (if (m.dropped > 0) ", dropped ${m.dropped}" else "")
            else -> "done"
        }
        clear()
        out.println("[$position/$total] ${cell.key}: $figures")
        // why a start failed is in the app's last words: show them here, not only in results.json
        if (result.status == CellStatus.FAILED) result.logTail.orEmpty().filter { it.isNotBlank() }.takeLast(FAILED_LOG_LINES)
            .forEach { out.println("      | ${it.take(300)}") }
    }

    override fun note(message: String) {
        clear()
        out.println(message)
    }

    override fun runFinished(result: RunResult, dir: Path) {
        ticker?.interrupt()
        clear()
    }

    private fun render() {
        val c = cell ?: return
        val elapsed = Duration.ofNanos(System.nanoTime() - runStart)
        val estimate = remaining.fold(Duration.ZERO) { a, x -> a + Estimates.cell(x) } + Estimates.priming(remaining, restartApp) +
            (Estimates.cell(c) - Duration.ofNanos(System.nanoTime() - cellStart)).coerceAtLeast(Duration.ZERO)
        val left = Estimates.paced(estimate, spent, planned)
        val rate = sampler?.liveServerRate()?.let { " %,.0f req/s".format(it) } ?: ""
        val inPhase = format(Duration.ofNanos(System.nanoTime() - phaseStart))
        val text = "[$position/$total] ${c.key} $phase $inPhase$rate | elapsed ${format(elapsed)}, left ~${format(left)}"
        if (interactive) {
            out.print("\r" + text.take(160).padEnd(line.length))
            out.flush()
            line = text.take(160)
        } else out.println(text)
    }

    private fun clear() {
        if (interactive && line.isNotEmpty()) {
            out.print("\r" + " ".repeat(line.length) + "\r")
            line = ""
        }
    }

    companion object {
        /** How many of a failed app's last log lines the console shows under its cell. */
        private const val FAILED_LOG_LINES = 8

        fun format(d: Duration): String {
            val s = d.seconds.coerceAtLeast(0)
            return if (s >= 3600) "%dh%02dm".format(s / 3600, s % 3600 / 60) else if (s >= 60) "%dm%02ds".format(s / 60, s % 60) else "${s}s"
        }
    }
}
