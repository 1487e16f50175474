package stackbench.runner.run

import stackbench.runner.cell.CellContext
import stackbench.runner.cell.ProgressListener
import stackbench.runner.plan.CapacityPolicy
import stackbench.runner.plan.CapacitySearch
import stackbench.runner.plan.Cell
import stackbench.runner.plan.LoadShape
import stackbench.runner.plan.OpenModel
import stackbench.runner.results.CapacityResult
import stackbench.runner.results.CapacityStep
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.suite.Slo

/** Whether one open-model cell met a latency and error target, and why not. */
object CapacityJudge {
    fun held(result: CellResult, slo: Slo): Pair<Boolean, String> {
        val m = result.window.measured ?: return false to "the cell ${result.status.name.lowercase()}: ${result.reason}"
        if (result.status != CellStatus.OK) return false to "the cell ${result.status.name.lowercase()}: ${result.reason}"
        val p99 = m.latency.p99 ?: return false to "no latency was measured"
        return when {
            p99 > slo.p99.toMillis() -> false to "p99 %.1f ms is over %d ms".format(p99, slo.p99.toMillis())
            m.errorRate > slo.errorRate -> false to "errors %.3f %% are over %.3f %%".format(m.errorRate * 100, slo.errorRate * 100)
            result.flags.any { it.code == "client-bound" } -> false to "the load generator was the bottleneck"
            else -> true to "held"
        }
    }
}

/**
 * Runs one capacity search: with [CapacitySearch.prime], first a closed-model cell that warms the app until
 * steady; then open-model cells at the rates [CapacityPolicy] chooses, one after another, until the target
 * is bracketed. Cells already in earlier results (--resume) are reused, not re-run.
 */
class CapacitySearchRunner(private val executor: CellExecutor, private val listener: ProgressListener) {

    fun run(
        search: CapacitySearch,
        nextIndex: () -> Int,
        ctx: CellContext,
        done: Map<String, CellResult>,
        onCell: (CellResult) -> Unit,
    ): CapacityResult {
        val policy = CapacityPolicy(search.startRate, search.maxRate, search.precision)
        val steps = mutableListOf<CapacityStep>()
        // a failed priming cell is recorded like any cell; the search goes on (on a fresh app)
        val prime = if (search.prime && !ctx.stopping()) search.primeCell(0).let { template ->
            done[template.key] ?: run {
                val cell = template.copy(index = nextIndex())
                listener.cellStarted(cell, cell.index, cell.index)
                executor.run(cell, ctx).also { onCell(it); listener.cellFinished(cell, it) }
            }
        } else null
        while (!ctx.stopping()) {
            val rate = policy.next(steps.map { CapacityPolicy.Step(it.rate, it.held) }) ?: break
            val connections = search.connections ?: OpenModel.connectionsFor(rate, search.template.settings.timeout)
            val template = Cell(0, search.app, search.profile, search.endpoint,
                search.template.copy(shape = LoadShape.Open(rate, connections)), search.repetition)
            val result = done[template.key] ?: run {
                val cell = template.copy(index = nextIndex())
                listener.cellStarted(cell, cell.index, cell.index)
                executor.run(cell, ctx).also { onCell(it); listener.cellFinished(cell, it) }
            }
            if (result.status == CellStatus.INTERRUPTED) break
            val (held, why) = CapacityJudge.held(result, search.slo)
            steps += CapacityStep(rate, result.window.measured?.latency?.p99, result.window.measured?.errorRate, held, result.key)
            listener.note("  capacity ${search.key}: ${LoadShape.formatRate(rate)} req/s ${if (held) "held" else "broke: $why"}")
        }
        val (capacity, brokeAt) = policy.outcome(steps.map { CapacityPolicy.Step(it.rate, it.held) })
        return CapacityResult(
            key = search.key, configKey = search.key.substringBeforeLast("/r"), app = search.app.name, endpoint = search.endpoint.label,
            repetition = search.repetition, sloP99Ms = search.slo.p99.toMillis().toDouble(), sloErrorRate = search.slo.errorRate,
            capacity = capacity, brokeAt = brokeAt, cellKeys = steps.map { it.cellKey }, steps = steps, primeKey = prime?.key,
        )
    }
}
